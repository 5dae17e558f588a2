package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.ValidationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An in-cluster component from the catalog, installed with Helm into the space's cluster.
 *
 * @param componentId the catalog id, e.g. {@code ingress-nginx}
 * @param namespace   where to install; null means a namespace named after the component
 * @param values      chart values over the catalog defaults; dotted keys ({@code controller.service.type}) allowed
 * @param chartVersion the chart version to install from the component's repository; null means the version the
 *                     catalog pins (a plan fills it in), so a revision can move a release to another version
 */
public record ComponentSpec(
    @JsonProperty("componentID") String componentId,
    String namespace,
    Map<String, Object> values,
    String chartVersion) implements ResourceSpec {

  private static final Pattern ID = Pattern.compile("[a-z0-9]([a-z0-9-]{0,51}[a-z0-9])?");
  /** A chart's SemVer 2 version, as Helm requires it. */
  private static final Pattern VERSION = Pattern.compile("v?\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.+-]{1,60})?");

  public ComponentSpec {
    values = values == null ? Map.of() : Map.copyOf(values);
  }

  /** The catalog's pinned chart version. */
  public ComponentSpec(String componentId, String namespace, Map<String, Object> values) {
    this(componentId, namespace, values, null);
  }

  public static ComponentSpec of(String componentId, Map<String, Object> values) {
    ComponentSpec spec = new ComponentSpec(componentId, null, values);
    ValidationException.throwIfAny(spec.validate());
    return spec;
  }

  public ComponentSpec inNamespace(String ns) {
    return new ComponentSpec(componentId, ns, values, chartVersion);
  }

  public ComponentSpec withValue(String key, Object value) {
    Map<String, Object> next = new LinkedHashMap<>(values);
    next.put(key, value);
    return new ComponentSpec(componentId, namespace, next, chartVersion);
  }

  /** The same component at another chart version of its repository. */
  public ComponentSpec withChartVersion(String version) {
    return new ComponentSpec(componentId, namespace, values, version);
  }

  @JsonIgnore
  @Override
  public JobKind kind() {
    return JobKind.COMPONENT;
  }

  /** The release name: the component id. */
  @JsonIgnore
  @Override
  public String name() {
    return componentId;
  }

  @Override
  public List<FieldError> validate() {
    Checks c = new Checks();
    if (c.required("componentID", componentId)) {
      c.matches("componentID", componentId, ID, "a catalog id of lower-case letters, digits and '-'");
    }
    c.resourceName("namespace", namespace, false);
    if (chartVersion != null && !VERSION.matcher(chartVersion).matches()) {
      c.add("chartVersion", "invalid_version", "a chart version is SemVer, such as 3.4.1");
    }
    values.forEach((key, value) -> {
      if (key == null || key.isBlank()) {
        c.add("values", "invalid_key", "value keys must not be blank");
      }
    });
    return c.errors();
  }
}
