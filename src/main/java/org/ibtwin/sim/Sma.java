package org.ibtwin.sim;

import java.util.Arrays;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Field;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.LinkWidth;

/**
 * The subnet management agent of every node: SubnGet and SubnSet of the SMP attributes, answered in place in the
 * MAD buffer (the attribute data at byte 64). {@link #handle} returns the MAD status for the GetResp, or
 * {@link #DROP} when the SMP is discarded unanswered (M_Key), or {@link #CONSUMED} for a TrapRepress.
 *
 * <p>Statuses: an attribute the node does not have, or a Set of a read-only attribute, is 0x0C (method/attribute
 * not supported); a method other than Get, Set and TrapRepress is 0x08; a modifier naming a port, block or entry
 * the node does not have, or a Set value the specification does not allow (a port state transition it forbids, an
 * OperationalVLs above VLCap...), is 0x1C (invalid field), and the Set changes nothing; a class version other than
 * 1 is 0x04.
 */
final class Sma {
    static final int DROP = -1;
    static final int CONSUMED = -2;
    private static final int D = 64;    // the SMP data offset

    private static final Layout NI = SmpAttributes.NODE_INFO;
    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final Layout SI = SmpAttributes.SWITCH_INFO;
    private static final Layout MX = SmpAttributes.MLNX_EXT_PORT_INFO;

    private static final Field NI_PORT_GUID = NI.field("PortGuid");
    private static final Field NI_LOCAL_PORT = NI.field("LocalPort");

    private static final Field PI_MKEY = PI.field("Mkey");
    private static final Field PI_GID_PREFIX = PI.field("GidPrefix");
    private static final Field PI_LID = PI.field("Lid");
    private static final Field PI_SM_LID = PI.field("SMLid");
    private static final Field PI_LEASE = PI.field("MkeyLeasePeriod");
    private static final Field PI_LOCAL_PORT = PI.field("LocalPort");
    private static final Field PI_LWE = PI.field("LinkWidthEnabled");
    private static final Field PI_LWS = PI.field("LinkWidthSupported");
    private static final Field PI_LWA = PI.field("LinkWidthActive");
    private static final Field PI_LSS = PI.field("LinkSpeedSupported");
    private static final Field PI_STATE = PI.field("LinkState");
    private static final Field PI_PHYS = PI.field("PhysLinkState");
    private static final Field PI_LDDS = PI.field("LinkDownDefState");
    private static final Field PI_PROTECT = PI.field("ProtectBits");
    private static final Field PI_LMC = PI.field("LMC");
    private static final Field PI_LSA = PI.field("LinkSpeedActive");
    private static final Field PI_LSE = PI.field("LinkSpeedEnabled");
    private static final Field PI_NMTU = PI.field("NeighborMTU");
    private static final Field PI_SMSL = PI.field("SMSL");
    private static final Field PI_VL_CAP = PI.field("VLCap");
    private static final Field PI_VL_HIGH = PI.field("VLHighLimit");
    private static final Field PI_VLARB_HIGH = PI.field("VLArbHighCap");
    private static final Field PI_VLARB_LOW = PI.field("VLArbLowCap");
    private static final Field PI_INIT_REPLY = PI.field("InitReply");
    private static final Field PI_MTU_CAP = PI.field("MtuCap");
    private static final Field PI_VL_STALL = PI.field("VLStallCount");
    private static final Field PI_HOQ = PI.field("HoqLife");
    private static final Field PI_OPER_VLS = PI.field("OperVLs");
    private static final Field PI_PE_IN = PI.field("PartEnforceInb");
    private static final Field PI_PE_OUT = PI.field("PartEnforceOutb");
    private static final Field PI_FR_IN = PI.field("FilterRawInb");
    private static final Field PI_FR_OUT = PI.field("FilterRawOutb");
    private static final Field PI_MKEY_VIOL = PI.field("MkeyViolations");
    private static final Field PI_PKEY_VIOL = PI.field("PkeyViolations");
    private static final Field PI_QKEY_VIOL = PI.field("QkeyViolations");
    private static final Field PI_GUID_CAP = PI.field("GuidCap");
    private static final Field PI_MCAST_SUPP = PI.field("McastPkeyTrapSuppressionEnabled");
    private static final Field PI_SUBNET_TIMEOUT = PI.field("SubnetTimeout");
    private static final Field PI_LOCAL_PHYS_ERR = PI.field("LocalPhysErr");
    private static final Field PI_OVERRUN_ERR = PI.field("OverrunErr");
    private static final Field PI_LSEA = PI.field("LinkSpeedExtActive");
    private static final Field PI_LSES = PI.field("LinkSpeedExtSupported");
    private static final Field PI_LSEE = PI.field("LinkSpeedExtEnabled");
    private static final Field PI_LSEA2 = PI.field("LinkSpeedExtActive2");
    private static final Field PI_LSES2 = PI.field("LinkSpeedExtSupported2");
    private static final Field PI_LSEE2 = PI.field("LinkSpeedExtEnabled2");

    /** PortInfo fields a Set copies as they come, on a CA port or a switch's port 0. */
    private static final Field[] MGMT_SETTABLE = {PI_MKEY, PI_GID_PREFIX, PI_SM_LID, PI_LEASE, PI_PROTECT, PI_SMSL,
        PI_SUBNET_TIMEOUT, PI_MCAST_SUPP, PI_MKEY_VIOL, PI_PKEY_VIOL, PI_QKEY_VIOL, PI_INIT_REPLY,
        PI_LOCAL_PHYS_ERR, PI_OVERRUN_ERR};
    /** PortInfo fields a Set copies as they come, on any port. */
    private static final Field[] PORT_SETTABLE = {PI_VL_HIGH, PI_VL_STALL, PI_HOQ, PI_PE_IN, PI_PE_OUT, PI_FR_IN,
        PI_FR_OUT};

    private static final Field SI_TOP = SI.field("LinearFdbTop");
    private static final Field SI_STATE_CHANGE = SI.field("StateChange");
    private static final Field[] SI_SETTABLE = {SI.field("DefPort"), SI.field("DefMcastPrimPort"),
        SI.field("DefMcastNotPrimPort"), SI.field("LifeTime"), SI.field("MulticastFDBTop")};

    private static final Field MX_SCE = MX.field("StateChangeEnable");
    private static final Field MX_LSS = MX.field("LinkSpeedSupported");
    private static final Field MX_LSE = MX.field("LinkSpeedEnabled");
    private static final Field MX_LSA = MX.field("LinkSpeedActive");

    /** ibsim's default SL to VL map: SL n to VL n, SL15 to VL7. */
    static final long DEFAULT_SL_TO_VL = 0x0123456789abcde7L;

    private final TwinState t;
    private final Traps traps;
    /** The LID the SMP being handled came from (set by the forwarding before {@link #handle}; a DR SMP's DrSLID). */
    int requesterLid;
    private final Links links;

    Sma(TwinState t, Traps traps, Links links) {
        this.t = t;
        this.traps = traps;
        this.links = links;
    }

    /**
     * Answers the SMP in {@code w} at node {@code node}, which received it at port {@code rx} (a switch's port 0
     * for a LID-routed SMP; the physical ingress port for a directed-route one).
     */
    int handle(int node, int rx, byte[] w, int method) {
        if ((w[2] & 0xff) != 1) {
            return MadStatus.BAD_VERSION;
        }
        if (method != Methods.GET && method != Methods.SET && method != Methods.TRAP_REPRESS) {
            return MadStatus.METHOD_NOT_SUPPORTED;
        }
        boolean set = method == Methods.SET;
        boolean sw = t.isSwitch(node);
        int mkeyPort = sw ? t.portBase[node] : rx;
        int mk = mkeyCheck(mkeyPort, w, method);
        if (mk < 0) {
            return DROP;
        }
        if (method == Methods.TRAP_REPRESS) {
            traps.repressed(node, rx, w);
            return CONSUMED;
        }
        int attr = Forwarding.u16(w, 16);
        long mod = ((w[20] & 0xffL) << 24) | ((w[21] & 0xff) << 16) | ((w[22] & 0xff) << 8) | (w[23] & 0xff);
        int st;
        switch (attr) {
            case AttributeIds.NODE_INFO -> {
                clearData(w);
                renderNodeInfo(node, rx, w, D);
                st = set ? MadStatus.METHOD_ATTR_NOT_SUPPORTED : MadStatus.OK;
            }
            case AttributeIds.NODE_DESC -> {
                System.arraycopy(t.nodeDesc, node * 64, w, D, 64);
                st = set ? MadStatus.METHOD_ATTR_NOT_SUPPORTED : MadStatus.OK;
            }
            case AttributeIds.PORT_INFO -> st = portInfo(node, rx, w, set, mod, mk == 1);
            case AttributeIds.SWITCH_INFO -> st = sw ? switchInfo(node, w, set) : MadStatus.METHOD_ATTR_NOT_SUPPORTED;
            case AttributeIds.GUID_INFO -> st = guidInfo(node, rx, w, set, mod);
            case AttributeIds.P_KEY_TABLE -> st = pkeyTable(node, rx, w, set, mod);
            case AttributeIds.SL_TO_VL_TABLE -> st = slToVl(node, rx, w, set, mod);
            case AttributeIds.VL_ARB_TABLE -> st = vlArb(node, rx, w, set, mod);
            case AttributeIds.LINEAR_FWD_TABLE -> st = sw ? lft(node, w, set, mod) : MadStatus.METHOD_ATTR_NOT_SUPPORTED;
            case AttributeIds.MCAST_FWD_TABLE -> st = sw ? mft(node, w, set, mod) : MadStatus.METHOD_ATTR_NOT_SUPPORTED;
            case AttributeIds.MLNX_EXT_PORT_INFO -> st = mlnxExtPortInfo(node, rx, w, set, mod);
            default -> st = MadStatus.METHOD_ATTR_NOT_SUPPORTED;
        }
        return st;
    }

    private static void clearData(byte[] w) {
        Arrays.fill(w, D, D + 64, (byte) 0);
    }

    // ---- M_Key (IBA 14.2.4)

    /**
     * The M_Key check of an SMP at management port {@code g} (a CA port, a switch's port 0). A port whose M_Key is 0
     * checks nothing; an SMP carrying the port's M_Key passes and stops a running lease timer. Otherwise, by
     * M_KeyProtectBits: a Get passes at 0 (the M_Key shown), passes at 1 with PortInfo's M_Key read as 0, and fails
     * at 2 and 3; a Set or a TrapRepress always fails. A failure discards the SMP unanswered, counts an M_Key
     * violation, starts the lease timer (MkeyLeasePeriod seconds; 0: never) unless it runs, and sends a trap 256 (not
     * for a TrapRepress: the SM's answer to that trap, refused, would trap again without end).
     * When the lease expires with no SMP carrying the key, the protect bits drop to 0 (the key stays).
     *
     * @return 0: pass; 1: pass, but a PortInfo Get hides the M_Key; -1: fail
     */
    private int mkeyCheck(int g, byte[] w, int method) {
        int o = g * 64;
        long key = PI.get(t.portInfo, o, PI_MKEY);
        if (key == 0) {
            return 0;
        }
        long now = t.clock.getAsLong();
        long deadline = t.mkeyLease.getOrDefault(g, 0L);
        if (deadline != 0 && now - deadline >= 0) {
            t.mkeyLease.remove(g);
            PI.set(t.portInfo, o, PI_PROTECT, 0);
        }
        if (getLong(w, 24) == key) {
            t.mkeyLease.remove(g);
            return 0;
        }
        int protect = (int) PI.get(t.portInfo, o, PI_PROTECT);
        if (method == Methods.GET && protect <= 1) {
            return protect;
        }
        long v = PI.get(t.portInfo, o, PI_MKEY_VIOL);
        if (v < 0xffff) {
            PI.set(t.portInfo, o, PI_MKEY_VIOL, v + 1);
        }
        long lease = PI.get(t.portInfo, o, PI_LEASE);
        if (lease != 0 && !t.mkeyLease.containsKey(g)) {
            t.mkeyLease.put(g, now + lease * 1_000_000_000L);
        }
        if (method != Methods.TRAP_REPRESS) {
            traps.badMkey(g, w, requesterLid);   // (a refused repress trapping again would only loop)
        }
        t.drop(DropReason.M_KEY);
        return -1;
    }

    // ---- NodeInfo

    void renderNodeInfo(int node, int rx, byte[] b, int off) {
        System.arraycopy(t.nodeInfo, node * 40, b, off, 40);
        NI.set(b, off, NI_PORT_GUID, t.portGuid[rx]);
        NI.set(b, off, NI_LOCAL_PORT, t.portNumber(rx));
    }

    // ---- PortInfo

    /** The port a PortInfo-like modifier names: a switch's port 0..N; a CA's port 1..N, 0 for the receiving one. */
    private int modPort(int node, int rx, long mod) {
        long p = mod & 0x7fffffffL;
        if (p > t.numPorts[node]) {
            return -1;
        }
        if (p == 0 && !t.isSwitch(node)) {
            return rx;
        }
        return t.portBase[node] + (int) p;
    }

    private int portInfo(int node, int rx, byte[] w, boolean set, long mod, boolean hideMkey) {
        int g = modPort(node, rx, mod);
        if (g < 0) {
            return MadStatus.INVALID_FIELD;
        }
        int st = MadStatus.OK;
        if (set) {
            if (!t.isSwitch(node) && g != rx) {
                st = MadStatus.INVALID_FIELD;   // a CA sets only the port the SMP came in by
            } else {
                st = setPortInfo(node, g, w);
            }
        }
        renderPortInfo(g, w, D, t.portNumber(rx));
        if (hideMkey) {
            PI.set(w, D, PI_MKEY, 0);
        }
        return st;
    }

    /** PortInfo of port {@code g} into {@code b} at {@code off}; LocalPortNum is {@code localPort}. */
    void renderPortInfo(int g, byte[] b, int off, int localPort) {
        System.arraycopy(t.portInfo, g * 64, b, off, 64);
        int n = t.portNode[g];
        boolean port0 = g == t.portBase[n] && t.isSwitch(n);
        boolean mgmt = !t.isSwitch(n) || port0;
        if (mgmt) {
            PI.set(b, off, PI_LID, t.lid[g]);
            PI.set(b, off, PI_LMC, t.lmc[g]);
        }
        PI.set(b, off, PI_LOCAL_PORT, localPort);
        PI.set(b, off, PI_STATE, t.state[g]);
        PI.set(b, off, PI_PHYS, t.phys[g]);
        int ws = t.widthSup[g] & 0xff;
        PI.set(b, off, PI_LWS, PortCodes.widthCode(ws));
        PI.set(b, off, PI_LWE, PortCodes.widthCode(t.widthEn[g] & 0xff));
        int wa = t.widthAct[g];
        if (wa == 0) {
            int x4 = 1 << LinkWidth.X4.ordinal();
            wa = (ws & x4) != 0 || ws == 0 ? LinkWidth.X4.ordinal() + 1 : LinkWidth.widest(ws).ordinal() + 1;
        }
        PI.set(b, off, PI_LWA, PortCodes.width(wa).code());
        int ss = t.speedSup[g] & 0xffff;
        int se = t.speedEn[g] & 0xffff;
        PI.set(b, off, PI_LSS, PortCodes.legacyCode(ss));
        PI.set(b, off, PI_LSE, PortCodes.legacyCode(se));
        PI.set(b, off, PI_LSES, PortCodes.extCode(ss));
        PI.set(b, off, PI_LSEE, PortCodes.extCode(se));
        PI.set(b, off, PI_LSES2, PortCodes.ext2Code(ss));
        PI.set(b, off, PI_LSEE2, PortCodes.ext2Code(se));
        int sa = t.speedAct[g];
        int legacy = 1;
        int ext = 0;
        int ext2 = 0;
        if (sa != 0) {
            int active = 1 << (sa - 1);
            int r = t.remote[g];
            int common = r >= 0 ? ss & se & t.speedSup[r] & t.speedEn[r] : ss & se;
            int lc = PortCodes.legacyCode(common);
            legacy = lc == 0 ? 1 : Integer.highestOneBit(lc);
            ext = PortCodes.extCode(active);
            ext2 = PortCodes.ext2Code(active);
            if (PortCodes.legacyCode(active) != 0) {
                legacy = PortCodes.legacyCode(active);
            } else if (PortCodes.fdr10Code(active) != 0) {
                legacy = 4;   // FDR10 reports QDR here; ExtendedPortInfo says FDR10
            }
        }
        PI.set(b, off, PI_LSA, legacy);
        PI.set(b, off, PI_LSEA, ext);
        PI.set(b, off, PI_LSEA2, ext2);
    }

    /** Validates the whole Set first, then applies it: 0x1C changes nothing. */
    private int setPortInfo(int node, int g, byte[] w) {
        int o = g * 64;
        boolean port0 = t.isSwitch(node) && g == t.portBase[node];
        boolean mgmt = !t.isSwitch(node) || port0;
        int newState = (int) PI.get(w, D, PI_STATE);
        int newPhys = (int) PI.get(w, D, PI_PHYS);
        int ldds = (int) PI.get(w, D, PI_LDDS);
        int operVls = (int) PI.get(w, D, PI_OPER_VLS);
        int nmtu = (int) PI.get(w, D, PI_NMTU);
        int newLid = (int) PI.get(w, D, PI_LID);
        int newLmc = (int) PI.get(w, D, PI_LMC);
        int lwe = (int) PI.get(w, D, PI_LWE);
        int lse = (int) PI.get(w, D, PI_LSE);
        int lsee = (int) PI.get(w, D, PI_LSEE);
        int lsee2 = (int) PI.get(w, D, PI_LSEE2);
        int cur = t.state[g];
        if (mgmt && newLid >= TwinState.MULTICAST_BASE) {
            return MadStatus.INVALID_FIELD;
        }
        if (!port0) {
            boolean ok = switch (newState) {
                case 0, TwinState.DOWN -> true;
                case TwinState.ARMED -> cur == TwinState.INIT || cur == TwinState.ARMED;
                case TwinState.ACTIVE -> cur == TwinState.ARMED || cur == TwinState.ACTIVE;
                default -> false;
            };
            if (!ok || !(newPhys == 0 || newPhys == TwinState.POLLING || newPhys == TwinState.DISABLED)) {
                return MadStatus.INVALID_FIELD;
            }
        }
        if (ldds > 2) {
            return MadStatus.INVALID_FIELD;
        }
        if (operVls > PI.get(t.portInfo, o, PI_VL_CAP)) {
            return MadStatus.INVALID_FIELD;
        }
        if (nmtu > PI.get(t.portInfo, o, PI_MTU_CAP)) {
            return MadStatus.INVALID_FIELD;
        }
        int ws = t.widthSup[g] & 0xff;
        int ss = t.speedSup[g] & 0xffff;
        int widthMask = t.widthEn[g] & 0xff;
        if (lwe == 0xff) {
            widthMask = ws;
        } else if (lwe != 0) {
            int m = PortCodes.widthMask(lwe);
            if (!PortCodes.validWidthCode(lwe) || (m & ~ws) != 0) {
                return MadStatus.INVALID_FIELD;
            }
            widthMask = m;
        }
        int speedMask = t.speedEn[g] & 0xffff;
        if (lse == 0xf) {
            speedMask = (speedMask & ~PortCodes.LEGACY_BITS) | (ss & PortCodes.LEGACY_BITS);
        } else if (lse != 0) {
            if ((lse & ~PortCodes.legacyCode(ss)) != 0) {
                return MadStatus.INVALID_FIELD;
            }
            speedMask = (speedMask & ~PortCodes.LEGACY_BITS) | lse;
        }
        if (lsee == 30) {
            speedMask &= ~PortCodes.EXT_BITS;
        } else if (lsee == 31) {
            speedMask = (speedMask & ~PortCodes.EXT_BITS) | (ss & PortCodes.EXT_BITS);
        } else if (lsee != 0) {
            if ((lsee & ~PortCodes.extCode(ss)) != 0) {
                return MadStatus.INVALID_FIELD;
            }
            speedMask = (speedMask & ~PortCodes.EXT_BITS) | (lsee << PortCodes.EXT_SHIFT);
        }
        if (lsee2 != 0 && PortCodes.ext2Code(ss) != 0) {
            speedMask |= 1 << PortCodes.EXT2_SHIFT;
        }

        // apply
        if (mgmt) {
            boolean lmcAllowed = !port0 || t.nodes[node].enhancedPort0();
            t.setLid(g, newLid, lmcAllowed ? newLmc : 0);
            for (Field f : MGMT_SETTABLE) {
                PI.set(t.portInfo, o, f, PI.get(w, D, f));
            }
        }
        for (Field f : PORT_SETTABLE) {
            PI.set(t.portInfo, o, f, PI.get(w, D, f));
        }
        if (ldds != 0) {
            PI.set(t.portInfo, o, PI_LDDS, ldds);
        }
        if (operVls != 0) {
            PI.set(t.portInfo, o, PI_OPER_VLS, operVls);
        }
        if (nmtu != 0) {
            PI.set(t.portInfo, o, PI_NMTU, nmtu);
        }
        if (!port0) {
            t.widthEn[g] = (byte) widthMask;
            t.speedEn[g] = (short) speedMask;
            applyStates(g, newState, newPhys);
        }
        return MadStatus.OK;
    }

    /**
     * PortState and PortPhysicalState from a Set: Down makes the link go down and train again (both ends come back
     * Init, the enabled widths and speeds taking effect); Armed and Active move this port alone; Disabled takes the
     * link down with this end disabled, Polling lets a disabled port train again.
     */
    private void applyStates(int g, int newState, int newPhys) {
        if (newState == TwinState.DOWN && t.phys[g] == TwinState.LINK_UP) {
            links.linkLost(g, t.remote[g], false, g);
            links.train(g, g);
        } else if (newState == TwinState.ARMED || newState == TwinState.ACTIVE) {
            if (t.state[g] != newState) {
                t.forwardingVersion++;
            }
            t.state[g] = (byte) newState;
        }
        if (newPhys == TwinState.DISABLED && t.phys[g] != TwinState.DISABLED) {
            t.phys[g] = TwinState.DISABLED;
            links.linkLost(g, t.remote[g], false, g);
        } else if (newPhys == TwinState.POLLING && t.phys[g] == TwinState.DISABLED) {
            t.phys[g] = TwinState.POLLING;
            links.train(g, g);
        }
    }

    // ---- SwitchInfo

    private int switchInfo(int node, byte[] w, boolean set) {
        int s = t.swIndex[node];
        int o = s * 20;
        if (set) {
            long top = SI.get(w, D, SI_TOP);
            if (top >= TwinState.LINEAR_FDB_CAP) {
                return renderSwitchInfo(s, w, MadStatus.INVALID_FIELD);
            }
            t.lftTop[s] = (int) top;
            for (Field f : SI_SETTABLE) {
                SI.set(t.switchInfo, o, f, SI.get(w, D, f));
            }
            if (SI.get(w, D, SI_STATE_CHANGE) != 0) {
                t.portStateChange[s] = false;   // writing 1 clears it
            }
        }
        return renderSwitchInfo(s, w, MadStatus.OK);
    }

    private int renderSwitchInfo(int s, byte[] w, int status) {
        clearData(w);
        System.arraycopy(t.switchInfo, s * 20, w, D, 20);
        SI.set(w, D, SI_TOP, t.lftTop[s]);
        SI.set(w, D, SI_STATE_CHANGE, t.portStateChange[s] ? 1 : 0);
        return status;
    }

    // ---- GUIDInfo: 8 GUIDs a block; index 0 is the port GUID

    private int guidInfo(int node, int rx, byte[] w, boolean set, long mod) {
        int g = t.isSwitch(node) ? t.portBase[node] : rx;
        int cap = (int) PI.get(t.portInfo, g * 64, PI_GUID_CAP);
        if (mod * 8 >= cap) {
            return MadStatus.INVALID_FIELD;
        }
        int block = (int) mod;
        long[] table = t.guids.get(g);
        if (set) {
            if (table == null) {
                table = new long[cap];
                t.guids.put(g, table);
            }
            for (int i = 0; i < 8 && block * 8 + i < cap; i++) {
                if (block * 8 + i != 0) {
                    table[block * 8 + i] = getLong(w, D + i * 8);
                }
            }
        }
        clearData(w);
        for (int i = 0; i < 8 && block * 8 + i < cap; i++) {
            int k = block * 8 + i;
            putLong(w, D + i * 8, k == 0 ? t.portGuid[g] : table == null ? 0 : table[k]);
        }
        return MadStatus.OK;
    }

    // ---- P_KeyTable: 32 a block; on a switch the modifier's top half is the port

    private int pkeyTable(int node, int rx, byte[] w, boolean set, long mod) {
        int g;
        if (t.isSwitch(node)) {
            int port = (int) (mod >>> 16);
            if (port > t.numPorts[node]) {
                return MadStatus.INVALID_FIELD;
            }
            g = t.portBase[node] + port;
        } else {
            g = rx;
        }
        int block = (int) (mod & 0xffff);
        int cap = t.pkeyCap(g);
        if (block * 32 >= cap) {
            return MadStatus.INVALID_FIELD;
        }
        int n = Math.min(32, cap - block * 32);
        if (set) {
            char[] table = t.pkeys[g];
            if (table == null) {
                table = new char[cap];
                table[0] = 0xffff;
                t.pkeys[g] = table;
            }
            for (int i = 0; i < n; i++) {
                table[block * 32 + i] = (char) Forwarding.u16(w, D + 2 * i);
            }
        }
        clearData(w);
        for (int i = 0; i < n; i++) {
            int k = t.pkey(g, block * 32 + i);
            w[D + 2 * i] = (byte) (k >> 8);
            w[D + 2 * i + 1] = (byte) k;
        }
        return MadStatus.OK;
    }

    // ---- SLtoVLMappingTable: on a switch, modifier = input port << 8 | output port

    private int slToVl(int node, int rx, byte[] w, boolean set, long mod) {
        long key;
        if (t.isSwitch(node)) {
            int in = (int) ((mod >>> 8) & 0xff);
            int out = (int) (mod & 0xff);
            if (in > t.numPorts[node] || out > t.numPorts[node]) {
                return MadStatus.INVALID_FIELD;
            }
            key = ((long) t.portBase[node] << 16) | (in << 8) | out;
        } else {
            key = (long) rx << 16;
        }
        if (set) {
            t.slToVl.put(key, getLong(w, D));
        }
        clearData(w);
        putLong(w, D, t.slToVl.getOrDefault(key, DEFAULT_SL_TO_VL));
        return MadStatus.OK;
    }

    // ---- VLArbitrationTable: modifier = block (1, 2 low; 3, 4 high) << 16 | port (switches)

    private int vlArb(int node, int rx, byte[] w, boolean set, long mod) {
        int g;
        if (t.isSwitch(node)) {
            int port = (int) (mod & 0xffff);
            if (port > t.numPorts[node]) {
                return MadStatus.INVALID_FIELD;
            }
            g = t.portBase[node] + port;
        } else {
            g = rx;
        }
        int block = (int) (mod >>> 16);
        if (block < 1 || block > 4) {
            return MadStatus.INVALID_FIELD;
        }
        boolean high = block > 2;
        int cap = (int) PI.get(t.portInfo, g * 64, high ? PI_VLARB_HIGH : PI_VLARB_LOW);
        int first = (block - 1) % 2 * 32;
        if (first >= cap) {
            return MadStatus.INVALID_FIELD;
        }
        int n = Math.min(32, cap - first);
        byte[] table = t.vlArb.get(g);
        if (set) {
            if (table == null) {
                table = defaultVlArb();
                t.vlArb.put(g, table);
            }
            int base = (high ? 128 : 0) + first * 2;
            System.arraycopy(w, D, table, base, n * 2);
            for (int i = 0; i < n; i++) {
                table[base + 2 * i] &= 0x0f;   // 4 reserved bits, then the VL
            }
        }
        if (table == null) {
            table = defaultVlArb();
        }
        clearData(w);
        System.arraycopy(table, (high ? 128 : 0) + first * 2, w, D, n * 2);
        return MadStatus.OK;
    }

    /** ibsim's defaults: the high table gives VL0 weight 4, the low table VL1..14 weight 4. */
    private static byte[] defaultVlArb() {
        byte[] b = new byte[256];
        for (int i = 0; i < 15; i++) {
            b[128 + 2 * i] = (byte) i;
            b[128 + 2 * i + 1] = (byte) (i == 0 ? 4 : 0);
            b[2 * i] = (byte) i;
            b[2 * i + 1] = (byte) (i == 0 ? 0 : 4);
        }
        return b;
    }

    // ---- LinearForwardingTable: block = modifier, 64 LIDs a block

    private int lft(int node, byte[] w, boolean set, long mod) {
        if (mod >= TwinState.LINEAR_FDB_CAP / 64) {
            return MadStatus.INVALID_FIELD;
        }
        int s = t.swIndex[node];
        int base = (int) mod * 64;
        byte[] table = t.lft[s];
        if (set) {
            if (table.length < base + 64) {
                // grow to LinearFDBTop when the SM set it first, else by a quarter: few copies, little slack
                int top = (t.lftTop[s] / 64 + 1) * 64;
                int len = Math.max(base + 64, Math.min(TwinState.LINEAR_FDB_CAP,
                        Math.max(top, table.length + table.length / 4)));
                byte[] bigger = Arrays.copyOf(table, len);
                Arrays.fill(bigger, table.length, len, (byte) 0xff);
                t.lft[s] = bigger;
                table = bigger;
            }
            if (!Arrays.equals(w, D, D + 64, table, base, base + 64)) {
                System.arraycopy(w, D, table, base, 64);
                t.forwardingVersion++;
            }
            return MadStatus.OK;
        }
        if (table.length >= base + 64) {
            System.arraycopy(table, base, w, D, 64);
        } else {
            Arrays.fill(w, D, D + 64, (byte) 0xff);
        }
        return MadStatus.OK;
    }

    // ---- MulticastForwardingTable: modifier = position (16 ports each) << 28 | block (32 MLIDs each)

    private int mft(int node, byte[] w, boolean set, long mod) {
        int position = (int) (mod >>> 28);
        int block = (int) (mod & 0x1ff);
        int positions = t.numPorts[node] / 16 + 1;
        if ((mod & 0x0ffffe00L) != 0 || position >= positions || block >= TwinState.MCAST_FDB_CAP / 32) {
            return MadStatus.INVALID_FIELD;
        }
        int s = t.swIndex[node];
        int base = (block * positions + position) * 32;
        char[] table = t.mft[s];
        if (set) {
            if (table == null) {
                table = new char[TwinState.MCAST_FDB_CAP * positions];
                t.mft[s] = table;
            }
            for (int i = 0; i < 32; i++) {
                table[base + i] = (char) Forwarding.u16(w, D + 2 * i);
            }
        }
        for (int i = 0; i < 32; i++) {
            int v = table == null ? 0 : table[base + i];
            w[D + 2 * i] = (byte) (v >> 8);
            w[D + 2 * i + 1] = (byte) v;
        }
        return MadStatus.OK;
    }

    // ---- Mellanox ExtendedPortInfo (0xFF90): FDR10, modifier = port as PortInfo

    private int mlnxExtPortInfo(int node, int rx, byte[] w, boolean set, long mod) {
        int g = modPort(node, rx, mod);
        if (g < 0) {
            return MadStatus.INVALID_FIELD;
        }
        int fdr10 = 1 << PortCodes.FDR10_SHIFT;
        if (set) {
            t.mlnxStateChangeEnable[g] = (byte) MX.get(w, D, MX_SCE);
            if ((t.speedSup[g] & fdr10) != 0) {
                boolean on = (MX.get(w, D, MX_LSE) & 1) != 0;
                t.speedEn[g] = (short) (on ? t.speedEn[g] | fdr10 : t.speedEn[g] & ~fdr10);
            }
        }
        clearData(w);
        MX.set(w, D, MX_SCE, t.mlnxStateChangeEnable[g] & 0xff);
        MX.set(w, D, MX_LSS, PortCodes.fdr10Code(t.speedSup[g]));
        MX.set(w, D, MX_LSE, PortCodes.fdr10Code(t.speedEn[g]));
        int sa = t.speedAct[g];
        MX.set(w, D, MX_LSA, sa == 0 ? 0 : PortCodes.fdr10Code(1 << (sa - 1)));
        return MadStatus.OK;
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }

    static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--, v >>>= 8) {
            b[off + i] = (byte) v;
        }
    }
}
