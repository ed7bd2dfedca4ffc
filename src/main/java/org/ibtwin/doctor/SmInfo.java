package org.ibtwin.doctor;

/**
 * A subnet manager doctor knows of (SMInfo, sminfo, saquery SMInfoRecord).
 *
 * @param guid     the SM's port GUID
 * @param lid      its LID (0 when not known)
 * @param priority 0..15
 * @param state    SMInfo SmState: 0 not active, 1 discovering, 2 standby, 3 master; -1 when not known
 * @param source   where it was read
 */
public record SmInfo(long guid, int lid, int priority, int state, String source) {
    public static final int NOT_ACTIVE = 0;
    public static final int DISCOVERING = 1;
    public static final int STANDBY = 2;
    public static final int MASTER = 3;

    public String stateLabel() {
        return switch (state) {
            case NOT_ACTIVE -> "not active";
            case DISCOVERING -> "discovering";
            case STANDBY -> "standby";
            case MASTER -> "master";
            default -> "state unknown";
        };
    }
}
