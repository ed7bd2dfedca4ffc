package org.ibtwin.mad;

/**
 * MAD methods: the whole method byte, the response bit (0x80) included. {@link MadHeaders#MAD} splits the byte into
 * {@code MadIsResponse} and the 7-bit {@code MadMethod}; {@link MadHeaders#method} reads the whole byte.
 */
public final class Methods {
    public static final int GET = 0x01;
    public static final int SET = 0x02;
    public static final int SEND = 0x03;
    public static final int TRAP = 0x05;
    public static final int REPORT = 0x06;
    public static final int TRAP_REPRESS = 0x07;
    public static final int GET_TABLE = 0x12;
    public static final int GET_TRACE_TABLE = 0x13;
    public static final int GET_MULTI = 0x14;
    public static final int DELETE = 0x15;

    /** The response bit (R). */
    public static final int RESPONSE = 0x80;
    public static final int GET_RESP = 0x81;
    public static final int REPORT_RESP = 0x86;
    public static final int GET_TABLE_RESP = 0x92;
    public static final int GET_TRACE_TABLE_RESP = 0x93;
    public static final int GET_MULTI_RESP = 0x94;
    public static final int DELETE_RESP = 0x95;

    private Methods() {
    }

    /** Whether the response bit is set. */
    public static boolean isResponse(int method) {
        return (method & RESPONSE) != 0;
    }

    /** The method answering a request: GetResp for Get and Set, TrapRepress for Trap, else the R bit set. */
    public static int responseTo(int method) {
        return switch (method) {
            case GET, SET -> GET_RESP;
            case TRAP -> TRAP_REPRESS;
            default -> method | RESPONSE;
        };
    }

    /** The name the IBA specification uses: "Get", "GetResp", "TrapRepress", ..., else "0x%02x". */
    public static String name(int method) {
        return switch (method) {
            case GET -> "Get";
            case SET -> "Set";
            case SEND -> "Send";
            case TRAP -> "Trap";
            case REPORT -> "Report";
            case TRAP_REPRESS -> "TrapRepress";
            case GET_TABLE -> "GetTable";
            case GET_TRACE_TABLE -> "GetTraceTable";
            case GET_MULTI -> "GetMulti";
            case DELETE -> "Delete";
            case GET_RESP -> "GetResp";
            case REPORT_RESP -> "ReportResp";
            case GET_TABLE_RESP -> "GetTableResp";
            case GET_TRACE_TABLE_RESP -> "GetTraceTableResp";
            case GET_MULTI_RESP -> "GetMultiResp";
            case DELETE_RESP -> "DeleteResp";
            default -> String.format("0x%02x", method);
        };
    }
}
