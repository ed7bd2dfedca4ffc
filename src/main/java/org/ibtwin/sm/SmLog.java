package org.ibtwin.sm;

/**
 * Where the SM's lines go: {@link #info} for the log of what it did ("SUBNET UP"), {@link #warn} for problems (a
 * duplicate GUID, the LID space full, SMPs that failed), {@link #progress} for how far a long sweep has got (at
 * most a line a second; a terminal may overwrite it).
 */
public interface SmLog {
    void info(String line);

    void warn(String line);

    default void progress(String line) {
    }

    /**
     * The SM's state changed (IBA 14.4: DISCOVERING, STANDBY, MASTER, NOTACTIVE), besides the {@link #info} line
     * that says so: for a listener that wants the states, not the text (the web view's events).
     */
    default void stateChange(String from, String to, String why) {
    }

    /** Says nothing. */
    static SmLog quiet() {
        return new SmLog() {
            @Override
            public void info(String line) {
            }

            @Override
            public void warn(String line) {
            }
        };
    }
}
