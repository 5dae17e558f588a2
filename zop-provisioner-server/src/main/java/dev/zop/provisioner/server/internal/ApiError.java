package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.FieldError;
import java.util.List;

/** A refusal the HTTP layer makes itself (auth, content type, size, rate), with its status and stable code. */
public final class ApiError extends RuntimeException {
  private final int status;
  private final String code;
  private final List<FieldError> fields;

  public ApiError(int status, String code, String message) {
    this(status, code, message, List.of());
  }

  public ApiError(int status, String code, String message, List<FieldError> fields) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.fields = List.copyOf(fields);
  }

  public static ApiError badRequest(String field, String code, String message) {
    return new ApiError(400, code, message, List.of(FieldError.of(field, code, message)));
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  public List<FieldError> fields() {
    return fields;
  }
}
