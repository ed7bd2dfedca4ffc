package org.ibtwin.mad;

/**
 * MAD status codes: the 16-bit Status field of the common header (in a directed-route SMP the top bit is the D bit,
 * so there the status proper is 15 bits).
 */
public final class MadStatus {
    public static final int OK = 0x0000;
    /** Bit 0: busy, the request was discarded. */
    public static final int BUSY = 0x0001;
    /** Bit 1: redirect, see ClassPortInfo. */
    public static final int REDIRECT = 0x0002;
    /** Code 1 in bits 2-4: bad base or class version. */
    public static final int BAD_VERSION = 0x0004;
    /** Code 2: method not supported. */
    public static final int METHOD_NOT_SUPPORTED = 0x0008;
    /** Code 3: method/attribute combination not supported. */
    public static final int METHOD_ATTR_NOT_SUPPORTED = 0x000C;
    /** Code 7: an attribute or attribute modifier field holds an invalid value. */
    public static final int INVALID_FIELD = 0x001C;
    /** Bits 2-4, the code the three above live in. */
    public static final int CODE_MASK = 0x001C;
    /** Bits 8-15: class-specific status. */
    public static final int CLASS_MASK = 0xFF00;

    // SA class-specific (bits 8-15)
    public static final int SA_NO_RESOURCES = 0x0100;
    public static final int SA_REQ_INVALID = 0x0200;
    public static final int SA_NO_RECORDS = 0x0300;
    public static final int SA_TOO_MANY_RECORDS = 0x0400;
    public static final int SA_INVALID_GID = 0x0500;
    public static final int SA_INSUFFICIENT_COMPONENTS = 0x0600;
    public static final int SA_DENIED = 0x0700;
    public static final int SA_PRIORITY_SUGGESTED = 0x0800;

    /** The D (direction) bit of a directed-route SMP's status word: set on the way back. */
    public static final int DR_DIRECTION = 0x8000;

    private MadStatus() {
    }

    /** A short description for logs and error messages. */
    public static String describe(int status) {
        int s = status & 0x7fff;
        if (s == OK) {
            return "OK";
        }
        StringBuilder sb = new StringBuilder(String.format("0x%04x", status));
        if ((s & BUSY) != 0) {
            sb.append(" busy");
        }
        if ((s & REDIRECT) != 0) {
            sb.append(" redirect");
        }
        switch (s & CODE_MASK) {
            case 0 -> { }
            case BAD_VERSION -> sb.append(" bad version");
            case METHOD_NOT_SUPPORTED -> sb.append(" method not supported");
            case METHOD_ATTR_NOT_SUPPORTED -> sb.append(" method/attribute not supported");
            case INVALID_FIELD -> sb.append(" invalid field");
            default -> sb.append(" reserved code ").append((s & CODE_MASK) >> 2);
        }
        if ((s & CLASS_MASK) != 0) {
            sb.append(" class-specific 0x").append(Integer.toHexString((s & CLASS_MASK) >> 8));
        }
        return sb.toString();
    }
}
