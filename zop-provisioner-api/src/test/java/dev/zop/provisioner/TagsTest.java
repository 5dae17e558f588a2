package dev.zop.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TagsTest {
  @Test
  void aNullTagValueIsRefusedNamingTheTagWhereverTagsAreGiven() {
    Map<String, String> tags = new HashMap<>();
    tags.put("team", null);
    tags.put("env", "prod");
    assertThatThrownBy(() -> SubmitOptions.none().withTags(tags)).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.fieldErrors()).extracting(FieldError::field).containsExactly("tags.team"));
    assertThatThrownBy(() -> JobPatch.tags(tags)).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.fieldErrors()).extracting(FieldError::code).containsExactly("required"));
    assertThat(SubmitOptions.none().withTags(Map.of("team", "")).tags()).containsEntry("team", "");
  }
}
