package dev.zop.provisioner.spring;

import dev.zop.provisioner.GuardrailLevel;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One guardrail under {@code zop.guardrails.<name>}: its level, its rule ({@code rule.type} and that kind's fields,
 * as the REST body spells them), its scope and its approver grant. The starter makes it at start, or its next
 * version when it differs from the one the organisation has.
 */
public class ZopGuardrailProperties {
  /** advisory, approval or deny. */
  private GuardrailLevel level;

  private final Rule rule = new Rule();

  private final Scope scope = new Scope();

  /** The grant a person needs to approve what it holds (default guardrail:approve). */
  private String approverGrant;

  private String description;

  /** False keeps it, unchecked. */
  private boolean enabled = true;

  /** A rule: {@code type} names the kind, and only that kind's fields are read. */
  public static class Rule {
    /**
     * space_budget, cost_increase, allowed_sizes, allowed_regions, allowed_versions, max_count, required_tags,
     * allowed_kinds or cel.
     */
    private String type;
    private BigDecimal monthlyMax;
    private BigDecimal percentMax;
    private List<String> sizes = new ArrayList<>();
    private List<String> regions = new ArrayList<>();
    private List<String> versions = new ArrayList<>();
    private Integer max;
    /** Required tag keys, each to a regular expression its value must match (empty: any value). */
    private Map<String, String> tags = new LinkedHashMap<>();
    private List<String> kinds = new ArrayList<>();
    private String expression;
    private String message;

    /** This rule as the REST body writes it: its type and the fields given. */
    Map<String, Object> asBody() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("type", type);
      put(body, "monthlyMax", monthlyMax);
      put(body, "percentMax", percentMax);
      put(body, "sizes", sizes.isEmpty() ? null : sizes);
      put(body, "regions", regions.isEmpty() ? null : regions);
      put(body, "versions", versions.isEmpty() ? null : versions);
      put(body, "max", max);
      if (!tags.isEmpty()) {
        Map<String, String> required = new LinkedHashMap<>();
        tags.forEach((key, regex) -> required.put(key, regex == null || regex.isEmpty() ? null : regex));
        body.put("tags", required);
      }
      put(body, "kinds", kinds.isEmpty() ? null : kinds);
      put(body, "expression", expression);
      put(body, "message", message);
      return body;
    }

    private static void put(Map<String, Object> body, String key, Object value) {
      if (value != null) {
        body.put(key, value);
      }
    }

    public String getType() {
      return type;
    }

    public void setType(String type) {
      this.type = type;
    }

    public BigDecimal getMonthlyMax() {
      return monthlyMax;
    }

    public void setMonthlyMax(BigDecimal monthlyMax) {
      this.monthlyMax = monthlyMax;
    }

    public BigDecimal getPercentMax() {
      return percentMax;
    }

    public void setPercentMax(BigDecimal percentMax) {
      this.percentMax = percentMax;
    }

    public List<String> getSizes() {
      return sizes;
    }

    public void setSizes(List<String> sizes) {
      this.sizes = sizes;
    }

    public List<String> getRegions() {
      return regions;
    }

    public void setRegions(List<String> regions) {
      this.regions = regions;
    }

    public List<String> getVersions() {
      return versions;
    }

    public void setVersions(List<String> versions) {
      this.versions = versions;
    }

    public Integer getMax() {
      return max;
    }

    public void setMax(Integer max) {
      this.max = max;
    }

    public Map<String, String> getTags() {
      return tags;
    }

    public void setTags(Map<String, String> tags) {
      this.tags = tags;
    }

    public List<String> getKinds() {
      return kinds;
    }

    public void setKinds(List<String> kinds) {
      this.kinds = kinds;
    }

    public String getExpression() {
      return expression;
    }

    public void setExpression(String expression) {
      this.expression = expression;
    }

    public String getMessage() {
      return message;
    }

    public void setMessage(String message) {
      this.message = message;
    }
  }

  /** Where it applies; empty lists do not narrow. */
  public static class Scope {
    private List<String> spaces = new ArrayList<>();
    private List<String> providers = new ArrayList<>();
    private List<String> kinds = new ArrayList<>();

    public List<String> getSpaces() {
      return spaces;
    }

    public void setSpaces(List<String> spaces) {
      this.spaces = spaces;
    }

    public List<String> getProviders() {
      return providers;
    }

    public void setProviders(List<String> providers) {
      this.providers = providers;
    }

    public List<String> getKinds() {
      return kinds;
    }

    public void setKinds(List<String> kinds) {
      this.kinds = kinds;
    }
  }

  public GuardrailLevel getLevel() {
    return level;
  }

  public void setLevel(GuardrailLevel level) {
    this.level = level;
  }

  public Rule getRule() {
    return rule;
  }

  public Scope getScope() {
    return scope;
  }

  public String getApproverGrant() {
    return approverGrant;
  }

  public void setApproverGrant(String approverGrant) {
    this.approverGrant = approverGrant;
  }

  public String getDescription() {
    return description;
  }

  public void setDescription(String description) {
    this.description = description;
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }
}
