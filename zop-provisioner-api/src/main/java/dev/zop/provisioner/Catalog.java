package dev.zop.provisioner;

import java.util.List;

/** The curated in-cluster components a space can install. */
public interface Catalog {
  List<CatalogComponent> components();
}
