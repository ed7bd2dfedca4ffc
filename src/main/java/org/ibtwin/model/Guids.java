package org.ibtwin.model;

/** GUID helpers: GUIDs are carried as {@code long} everywhere. */
public final class Guids {
    private Guids() {
    }

    /** "0x0002c90300000001": 16 hex digits with leading zeros, as the tools print. */
    public static String hex(long guid) {
        return String.format("0x%016x", guid);
    }

    /** Parses "0x2c90300000001", "2c90300000001" or with leading zeros; throws NumberFormatException. */
    public static long parse(String s) {
        String t = s.trim();
        if (t.startsWith("0x") || t.startsWith("0X")) {
            t = t.substring(2);
        }
        if (t.isEmpty() || t.length() > 16) {
            throw new NumberFormatException("not a GUID: " + s);
        }
        return Long.parseUnsignedLong(t, 16);
    }
}
