package dev.zop.provisioner.sim;

import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spi.OutputKey;
import java.util.List;
import java.util.Map;

/**
 * One simulated resource a job creates.
 *
 * @param key        unique within the job; names its steps and prefixes its outputs ({@code cluster.name})
 * @param name       the cloud name, or null to derive one from the job with {@code suffix}
 * @param service    the API the operations belong to, e.g. {@code kubernetes}
 * @param noun       the resource in operation names, e.g. {@code Cluster} for {@code kubernetes:CreateCluster}
 * @param waits      whether creation is asynchronous and a step waits for the resource to become ACTIVE
 * @param outputs    extra outputs to record once it exists; {@code {name}} is replaced by the resource name
 * @param server     for a SQL datastore, the engine whose real backing server (if the cloud has one) it stands for
 */
record Part(String key, String type, String name, String suffix, String service, String noun,
    Map<String, String> attributes, boolean waits, Map<String, String> outputs, DatastoreEngine server) {

  static Part named(String key, String type, String name, String service, String noun) {
    return new Part(key, type, name, null, service, noun, Map.of(), false, Map.of(), null);
  }

  static Part derived(String key, String type, String suffix, String service, String noun) {
    return new Part(key, type, null, suffix, service, noun, Map.of(), false, Map.of(), null);
  }

  Part waiting() {
    return new Part(key, type, name, suffix, service, noun, attributes, true, outputs, server);
  }

  Part attributes(Map<String, String> values) {
    return new Part(key, type, name, suffix, service, noun, values, waits, outputs, server);
  }

  Part outputs(Map<String, String> values) {
    return new Part(key, type, name, suffix, service, noun, attributes, waits, values, server);
  }

  Part backedBy(DatastoreEngine engine) {
    return new Part(key, type, name, suffix, service, noun, attributes, waits, outputs, engine);
  }

  String create() {
    return service + ":Create" + noun;
  }

  String describe() {
    return service + ":Describe" + noun;
  }

  String delete() {
    return service + ":Delete" + noun;
  }

  String modify() {
    return service + ":Modify" + noun;
  }

  OutputKey<String> nameKey() {
    return SimState.PART_NAME.of(key);
  }

  OutputKey<String> idKey() {
    return SimState.PART_ID.of(key);
  }

  String stepSuffix() {
    return key.replace('.', '-');
  }

  List<String> createPermissions() {
    return List.of(describe(), create());
  }
}
