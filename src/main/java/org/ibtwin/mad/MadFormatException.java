package org.ibtwin.mad;

/**
 * A MAD buffer or a field value that does not fit its layout: a truncated buffer, a buffer of the wrong size, a
 * value too large for its field, an unknown field name. The message always names the layout and, where there is
 * one, the field.
 */
public class MadFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String layout;
    private final String field;

    public MadFormatException(String layout, String field, String message) {
        super(prefix(layout, field) + message);
        this.layout = layout;
        this.field = field;
    }

    private static String prefix(String layout, String field) {
        if (layout == null && field == null) {
            return "";
        }
        if (field == null) {
            return layout + ": ";
        }
        return (layout == null ? field : layout + "." + field) + ": ";
    }

    /** The layout's name, or null. */
    public String layout() {
        return layout;
    }

    /** The field's name, or null when the problem is with the whole buffer. */
    public String field() {
        return field;
    }
}
