package dev.zop.provisioner.aws;

/** An AWS call that failed, with the IAM action it needed, so a failure can name what to grant. */
final class AwsActionException extends RuntimeException {
  private final String action;

  AwsActionException(String action, RuntimeException cause) {
    super(action + ": " + cause.getMessage(), cause, false, false);
    this.action = action;
  }

  String action() {
    return action;
  }
}
