package dev.zop.provisioner.core.internal.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.spec.ResourceSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A config's fields as the REST body spells their paths ({@code nodeGroups[0].max}): two configs' differences, a
 * config's leaves, and a config with some leaves set to other values (what the cloud has). Revisions, reconciles,
 * imports and a plan's look at the cloud all name fields this way.
 */
final class ConfigPaths {
  /** A path's step into a list: {@code nodeGroups[0]}. */
  private static final Pattern INDEXED = Pattern.compile("(\\w+)\\[(\\d+)]");

  private ConfigPaths() {}

  /** One leaf that differs, as the REST body spells its field ({@code nodeGroups[0].max}). */
  record FieldChange(String field, String from, String to) {}

  /**
   * Each leaf of the two configs as the REST body spells them, where they differ. A list whose items are objects
   * with distinct names (node groups, subnets) is compared item by name, not by place: an item kept is compared
   * with itself wherever it moved (at its index in the revised list), an item added shows each of its fields from
   * nothing, and an item dropped is one change at its old index, from its name to nothing.
   */
  static List<FieldChange> diff(ResourceSpec current, ResourceSpec revised) {
    List<FieldChange> changes = new ArrayList<>();
    diff("", Json.MAPPER.valueToTree(current), Json.MAPPER.valueToTree(revised), changes);
    return changes;
  }

  private static void diff(String path, JsonNode from, JsonNode to, List<FieldChange> changes) {
    if (from != null && to != null && from.isObject() && to.isObject()) {
      Set<String> fields = new LinkedHashSet<>();
      to.fieldNames().forEachRemaining(fields::add);
      from.fieldNames().forEachRemaining(fields::add);
      for (String field : fields) {
        diff(path.isEmpty() ? field : path + "." + field, from.get(field), to.get(field), changes);
      }
      return;
    }
    if (from != null && to != null && from.isArray() && to.isArray() && named(from) && named(to)) {
      Map<String, Integer> was = new LinkedHashMap<>();
      for (int i = 0; i < from.size(); i++) {
        was.put(from.get(i).get("name").asText(), i);
      }
      Set<String> kept = new LinkedHashSet<>();
      for (int i = 0; i < to.size(); i++) {
        String name = to.get(i).get("name").asText();
        kept.add(name);
        Integer before = was.get(name);
        diff(path + "[" + i + "]", before == null ? null : from.get(before), to.get(i), changes);
      }
      was.forEach((name, i) -> {
        if (!kept.contains(name)) {
          changes.add(new FieldChange(path + "[" + i + "]", name, null));
        }
      });
      return;
    }
    if (from != null && to != null && from.isArray() && to.isArray()) {
      for (int i = 0; i < Math.max(from.size(), to.size()); i++) {
        diff(path + "[" + i + "]", from.get(i), to.get(i), changes);
      }
      return;
    }
    Map<String, String> before = new LinkedHashMap<>();
    Map<String, String> after = new LinkedHashMap<>();
    if (from != null) {
      flatten(path, from, before);
    }
    if (to != null) {
      flatten(path, to, after);
    }
    after.forEach((field, value) -> {
      if (!Objects.equals(before.get(field), value)) {
        changes.add(new FieldChange(field, before.get(field), value));
      }
    });
    before.forEach((field, value) -> {
      if (!after.containsKey(field)) {
        changes.add(new FieldChange(field, value, null));
      }
    });
  }

  /** Whether every item of a list is an object with a name no other item has. */
  private static boolean named(JsonNode list) {
    Set<String> names = new java.util.HashSet<>();
    for (JsonNode item : list) {
      if (!item.isObject() || !item.path("name").isTextual() || !names.add(item.get("name").asText())) {
        return false;
      }
    }
    return true;
  }

  private static void flatten(String path, JsonNode node, Map<String, String> leaves) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        flatten(path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue(), leaves);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        flatten(path + "[" + i + "]", node.get(i), leaves);
      }
    } else if (!node.isNull()) {
      leaves.put(path, node.isTextual() ? node.asText() : node.toString());
    }
  }

  /** Every leaf of {@code config}, by path, as text. */
  static Map<String, String> leaves(ResourceSpec config) {
    Map<String, String> leaves = new LinkedHashMap<>();
    flatten("", Json.MAPPER.valueToTree(config), leaves);
    return leaves;
  }

  /**
   * {@code config} with each leaf {@code values} names set to its value, read as the leaf's own JSON type; a path
   * that is no leaf of the config, or a value not of its type, is passed over. The config itself when none is set;
   * throws when the values make no config of its kind.
   */
  static ResourceSpec withValues(ResourceSpec config, Map<String, String> values) {
    JsonNode tree = Json.MAPPER.valueToTree(config);
    boolean changed = false;
    for (Map.Entry<String, String> value : values.entrySet()) {
      changed |= setLeaf(tree, value.getKey(), value.getValue());
    }
    return changed ? Json.spec(config.kind(), tree.toString()) : config;
  }

  /**
   * Sets the leaf at {@code path} ({@code nodeGroups[0].min}) to {@code value} read as the leaf's own JSON type;
   * false when there is no such leaf, or the value is not of its type.
   */
  private static boolean setLeaf(JsonNode root, String path, String value) {
    String[] parts = path.split("\\.");
    JsonNode node = root;
    for (int i = 0; i < parts.length; i++) {
      Matcher indexed = INDEXED.matcher(parts[i]);
      String name = indexed.matches() ? indexed.group(1) : parts[i];
      if (!(node instanceof ObjectNode object) || !object.has(name)) {
        return false;
      }
      if (indexed.matches()) {
        node = object.get(name).get(Integer.parseInt(indexed.group(2)));
        if (node == null || i == parts.length - 1) {
          return false;
        }
        continue;
      }
      if (i < parts.length - 1) {
        node = object.get(name);
        continue;
      }
      JsonNode leaf = object.get(name);
      try {
        if (leaf.isIntegralNumber()) {
          object.put(name, Long.parseLong(value));
        } else if (leaf.isNumber()) {
          object.put(name, new java.math.BigDecimal(value));
        } else if (leaf.isBoolean() && (value.equals("true") || value.equals("false"))) {
          object.put(name, Boolean.parseBoolean(value));
        } else if (leaf.isTextual()) {
          object.put(name, value);
        } else {
          return false;
        }
      } catch (NumberFormatException e) {
        return false;
      }
      return true;
    }
    return false;
  }


  /** The items of named lists the revision adds ({@code nodeGroups[1]}): their name is new. */
  static Set<String> addedItems(List<FieldChange> diff) {
    Set<String> added = new LinkedHashSet<>();
    for (FieldChange change : diff) {
      if (change.from() == null && change.to() != null && change.field().matches(".*\\[\\d+]\\.name")) {
        added.add(change.field().substring(0, change.field().length() - ".name".length()));
      }
    }
    return added;
  }
}
