package dev.zop.provisioner;

import java.util.List;

/**
 * An organisation's guardrails: limits on what may be made, checked on every plan ({@link Plan#verdicts()}) and
 * wherever a change is decided (submit, revision, reconcile, retry). Managing them needs
 * {@link Policies#GUARDRAIL_MANAGE}; reading them, {@code provisioning:view}.
 */
public interface Guardrails {

  /**
   * Makes a guardrail at version 1.
   *
   * @throws ValidationException naming each bad field; a CEL expression that does not compile names its line and
   *     column, and one whose cost is beyond the bound is refused
   * @throws ConflictException when the organisation already has a guardrail of that name ({@code name_taken})
   */
  Guardrail create(GuardrailRequest request);

  /** The guardrail's latest version, deleted or not. */
  Guardrail get(GuardrailId id);

  /** One version of the guardrail. */
  Guardrail get(GuardrailId id, int version);

  /** The latest version of each guardrail not deleted, by name. */
  List<Guardrail> list();

  /** Every version of the guardrail, oldest first. */
  List<Guardrail> versions(GuardrailId id);

  /** Makes the next version: fields left null in {@code request} keep their value. */
  Guardrail update(GuardrailId id, GuardrailRequest request);

  /** Makes a last version that is deleted: no longer listed or checked; its versions stay readable. */
  Guardrail delete(GuardrailId id);

  /**
   * Approves a job guardrails hold {@code awaiting_approval}: it is queued and runs. The caller must not be its
   * submitter and must hold the approver grant of every guardrail holding it (an admin holds them all); of two
   * decisions at once one wins, the other is a {@link ConflictException}.
   */
  Job approve(JobId job, String reason);

  /** Rejects a job guardrails hold: it ends {@code cancelled} with nothing made. Who may is as for {@link #approve}. */
  Job reject(JobId job, String reason);

  /**
   * Tries a guardrail without saving it: what it would have done to the organisation's last {@code lastPlans}
   * recorded changes (those made while some guardrail applied, whose plan documents their decisions keep) and which
   * of its succeeded jobs (up to 1,000) break it today. Needs {@link Policies#GUARDRAIL_MANAGE}.
   *
   * @throws ValidationException as {@link #create} refuses the guardrail
   */
  GuardrailTrial tryOut(GuardrailRequest request, int lastPlans);

  /**
   * Grants an exemption: a broken verdict of its guardrail on a change it covers is {@code exempted}. Needs
   * {@link Policies#GUARDRAIL_EXEMPT}.
   *
   * @throws ValidationException naming each bad field (a job and a space both or neither, an expiry passed or more
   *     than a year ahead, a blank reason)
   */
  GuardrailExemption exempt(GuardrailExemptionRequest request);

  /** The organisation's exemptions, newest first, expired and revoked ones included. */
  List<GuardrailExemption> exemptions();

  /** Revokes an exemption: it stops applying at once, and is kept. Needs {@link Policies#GUARDRAIL_EXEMPT}. */
  GuardrailExemption revokeExemption(String id);

  /**
   * The organisation's latest {@code limit} decisions (1..1000), newest first: every change guardrails answered,
   * refused ones too (which made no job), and every person's approval or rejection.
   */
  List<GuardrailDecision> decisions(int limit);

  /** What guardrails decided on the job, oldest first: each change, and each person's approval or rejection. */
  List<GuardrailDecision> decisions(JobId job);
}
