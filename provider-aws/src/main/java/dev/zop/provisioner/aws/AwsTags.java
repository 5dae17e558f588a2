package dev.zop.provisioner.aws;

/** The tags every resource the provider creates carries: the job that owns it and its part in the job. */
final class AwsTags {
  static final String JOB = "zop:job";
  static final String PART = "zop:part";
  static final String NAME = "Name";

  private AwsTags() {}
}
