package dev.zop.provisioner.notify;

import dev.zop.provisioner.JobId;
import java.time.Instant;

/**
 * What became of one notification: delivered, or given up on after the attempts the notifier allows.
 *
 * @param id       the delivery's id, sent with it (a receiver de-duplicates retries by it)
 * @param attempts how many times it was sent
 * @param detail   the receiver's answer or the error of the last attempt
 */
public record Delivery(String id, String channel, String template, String orgId, JobId jobId, boolean delivered,
    int attempts, String detail, Instant finishedAt) {}
