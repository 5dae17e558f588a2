package dev.zop.provisioner.spi;

import dev.zop.provisioner.remediation.Recommendation;

/** Where the engine looks recommendations up. The default is a table the host fills. */
@FunctionalInterface
public interface RecommendationSource {
  /** The recommendation, or null when the organisation has none with this id. */
  Recommendation find(String orgId, String recommendationId);
}
