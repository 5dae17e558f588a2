package dev.zop.provisioner.spec;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** IPv4 CIDR parsing and containment, enough to validate network specs before any cloud call. */
final class Cidr {
  private static final Pattern FORM = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})/(\\d{1,2})");

  private Cidr() {}

  /** {network address, prefix length}, or null when {@code value} is not a canonical IPv4 block. */
  static long[] parse(String value) {
    Matcher m = FORM.matcher(value);
    if (!m.matches()) {
      return null;
    }
    long address = 0;
    for (int i = 1; i <= 4; i++) {
      int octet = Integer.parseInt(m.group(i));
      if (octet > 255) {
        return null;
      }
      address = (address << 8) | octet;
    }
    int prefix = Integer.parseInt(m.group(5));
    if (prefix > 32) {
      return null;
    }
    long mask = prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
    if ((address & mask) != address) {
      return null; // host bits set: 10.0.0.1/16 is almost always a typo
    }
    return new long[] {address, prefix};
  }

  static boolean contains(long[] outer, long[] inner) {
    if (inner[1] < outer[1]) {
      return false;
    }
    long mask = outer[1] == 0 ? 0 : (0xFFFFFFFFL << (32 - outer[1])) & 0xFFFFFFFFL;
    return (inner[0] & mask) == outer[0];
  }

  static boolean overlaps(long[] a, long[] b) {
    return contains(a, b) || contains(b, a);
  }
}
