package dev.zop.provisioner.kit;

/**
 * The failure codes every provider shares, so a caller reads the same code for the same situation on any cloud.
 * A provider adds its own codes only for situations only it has (a peering state, a chart error).
 */
public final class FailureCodes {
  /** The cloud refused the account's credentials. */
  public static final String INVALID_CREDENTIALS = "invalid_credentials";
  /** The account's credentials could not be loaded at all (nothing set where its reference points). */
  public static final String CREDENTIALS_MISSING = "credentials_missing";
  /** The account's identity lacks a permission; the fix hint names it. */
  public static final String ACCESS_DENIED = "access_denied";
  /** A quota or limit of the account was reached. */
  public static final String QUOTA_EXCEEDED = "quota_exceeded";
  /** A resource with the name the job needs exists and was not made by this job. */
  public static final String NAME_IN_USE = "name_in_use";
  /** The cloud refused a parameter the spec produced. */
  public static final String INVALID_PARAMETER = "invalid_parameter";
  /** The cloud asked the caller to slow down. */
  public static final String THROTTLED = "throttled";
  /** Something else still uses the resource being deleted; retried with backoff. */
  public static final String DEPENDENCY_VIOLATION = "dependency_violation";
  /** A resource just created is not visible yet to other calls. */
  public static final String EVENTUAL_CONSISTENCY = "eventual_consistency";
  /** A resource the job made is gone while the job still needs it. */
  public static final String RESOURCE_MISSING = "resource_missing";
  /** A step waited longer than the provider's limit for its kind. */
  public static final String TIMED_OUT = "timed_out";
  /** The step's thread was interrupted. */
  public static final String INTERRUPTED = "interrupted";
  /** A failure no classifier recognised. */
  public static final String UNEXPECTED_ERROR = "unexpected_error";
  /** A step called the cloud with a permission it does not declare: a provider bug. */
  public static final String UNDECLARED_PERMISSION = "undeclared_permission";

  private FailureCodes() {}

  /** The cloud's endpoint could not be reached (DNS, connection, TLS), e.g. {@code aws_unreachable}. */
  public static String unreachable(String providerId) {
    return providerId + "_unreachable";
  }

  /** The cloud answered with a server error (5xx), e.g. {@code gcp_unavailable}. */
  public static String unavailable(String providerId) {
    return providerId + "_unavailable";
  }

  /** The cloud answered with an error nothing else describes, e.g. {@code azure_error}. */
  public static String error(String providerId) {
    return providerId + "_error";
  }
}
