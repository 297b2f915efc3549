package dev.ireestubs.invoke;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DictValuesTest {

  @Test
  void anUnmodifiableMapInDescriptorOrder() {
    Map<String, Object> dict =
        new DictValues(new String[] {"b", "a", "c"}, new Object[] {1, null, "x"});
    Map<String, Object> same = new LinkedHashMap<>();
    same.put("b", 1);
    same.put("a", null);
    same.put("c", "x");
    assertThat(dict).isEqualTo(same);
    assertThat(same).isEqualTo(dict);
    assertThat(dict.hashCode()).isEqualTo(same.hashCode());
    assertThat(dict.toString()).isEqualTo(same.toString());
    assertThat(dict.keySet()).containsExactly("b", "a", "c").inOrder();
    assertThat(dict.get("c")).isEqualTo("x");
    assertThat(dict.get("z")).isNull();
    assertThat(dict.containsKey("a")).isTrue();
    assertThat(dict.containsKey(3)).isFalse();
    assertThrows(UnsupportedOperationException.class, () -> dict.put("d", 1));
    assertThrows(UnsupportedOperationException.class, () -> dict.remove("a"));
    Iterator<Map.Entry<String, Object>> it = dict.entrySet().iterator();
    Map.Entry<String, Object> first = it.next();
    assertThrows(UnsupportedOperationException.class, () -> first.setValue(2));
    assertThrows(UnsupportedOperationException.class, it::remove);
  }
}
