package dev.zop.provisioner.sim;

/** An error the simulated cloud returns, with a code the sim provider classifies like a real SDK's. */
public final class SimException extends RuntimeException {
  /** The error codes of the simulated cloud. */
  public enum Code { ACCESS_DENIED, THROTTLED, QUOTA_EXCEEDED, ALREADY_EXISTS, NOT_FOUND, INTERNAL_ERROR, UNSUPPORTED }

  private final Code code;
  private final String operation;

  public SimException(Code code, String operation, String message) {
    super(message);
    this.code = code;
    this.operation = operation;
  }

  public Code code() {
    return code;
  }

  /** The operation that failed, e.g. {@code kubernetes:CreateCluster}. */
  public String operation() {
    return operation;
  }
}
