package org.ibtwin.sm.sa;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.MgmtClasses;
import org.ibtwin.mad.PerfAttributes;
import org.ibtwin.mad.SaAttributes;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTransport;
import org.ibtwin.transport.ReceivedMad;

/**
 * The subnet administrator at the SM's port: answers SA MADs (class 0x03) from the {@link SaSnapshot} of the last
 * heavy sweep. SubnAdmGet (one record: none is ERR_NO_RECORDS, several ERR_TOO_MANY_RECORDS) and SubnAdmGetTable
 * with component masks for NodeRecord, PortInfoRecord, PathRecord, LinkRecord, SwitchInfoRecord, LFTRecord,
 * P_KeyTableRecord, SMInfoRecord, MCMemberRecord, InformInfoRecord and GUIDInfoRecord; SubnAdmSet/Delete of
 * MCMemberRecord (join and leave the IPoIB broadcast groups), SubnAdmSet of InformInfo (subscriptions,
 * {@link Subscriptions}, and the Reports of traps to them), SubnAdmSet/Get/GetTable/Delete of ServiceRecord
 * (registrations with leases, {@link Services}), SubnAdmSet/Delete of GUIDInfoRecord (alias GUIDs,
 * {@link AliasGuids}); Get(ClassPortInfo). A request with a non-zero SM_Key other than the SA key is dropped.
 *
 * <p>A GetTable response goes out by RMPP ({@link RmppSender}). A response that fits one MAD is sent at its own
 * length (header and records), as OpenSM's is, so a client that reads the datagram's length (saquery through
 * libumad2sim) counts its records right.
 *
 * <p>Runs on the transport's delivery thread; the snapshot is swapped whole (a volatile reference), so the sweeping
 * thread never holds up an answer and an answer never sees half a sweep.
 */
public final class SubnetAdministrator {
    static final int SA_CLASS_VERSION = 2;
    private static final Layout SA = MadHeaders.SA;
    private static final Layout MCMR = SaAttributes.MC_MEMBER_RECORD;
    private static final int HEADER = MadHeaders.SA_DATA_OFFSET;
    /** ClassPortInfo CapabilityMask: IsTrapSupported? no; IsNoticeSupported (bit 1), multicast support bit 9. */
    private static final int CPI_CAP_MASK = 0x0202;

    private final MadTransport transport;
    private final Supplier<byte[]> smInfo;
    private final RmppSender rmpp;
    private volatile SaSnapshot snapshot;
    /** The multicast groups and their members. */
    private final McGroups multicast = new McGroups();
    /** The SA key a trusted query carries in its SM_Key (OpenSM's sa_key, 1). */
    private volatile long saKey = 1;
    /** The QoS policy's PathRecord SLs (null: none). */
    private volatile QosPolicy qosPolicy;
    private final Subscriptions subscriptions = new Subscriptions();
    private final Services services = new Services();
    private final AliasGuids aliases = new AliasGuids();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong ignored = new AtomicLong();
    private final AtomicLong refusedKeys = new AtomicLong();
    private final AtomicLong reportsAcknowledged = new AtomicLong();
    private final AtomicLong reportsLost = new AtomicLong();
    /** How long a Report waits for its ReportResp before it is sent again, and how many times it is. */
    static final java.time.Duration REPORT_TIMEOUT = java.time.Duration.ofMillis(200);
    static final int REPORT_RETRIES = 3;

    /**
     * @param smInfo the SM's SMInfo (21 bytes) as it would answer it now
     */
    public SubnetAdministrator(MadTransport transport, Supplier<byte[]> smInfo) {
        this.transport = transport;
        this.smInfo = smInfo;
        this.rmpp = new RmppSender(transport);
    }

    /** Whether {@code mad} is for the SA (management class 0x03). */
    public static boolean isSa(byte[] mad) {
        return mad.length >= 24 && MadHeaders.mgmtClass(mad) == MgmtClasses.SUBN_ADM;
    }

    /** The data the SA answers from from now on; its groups are the SM's own multicast groups. */
    public void snapshot(SaSnapshot s) {
        this.snapshot = s;
        multicast.smGroups(s.groups());
        java.util.Set<Long> present = new java.util.HashSet<>();
        for (int g : s.topology().endPorts()) {
            present.add(s.topology().portGuid(g));
        }
        multicast.keepOnly(present::contains);
        subscriptions.keepOnly(present::contains);
        aliases.keepOnly(present::contains);
    }

    /** The multicast groups and their members. */
    public McGroups multicast() {
        return multicast;
    }

    /** The key that makes a query trusted (OpenSM's sa_key). */
    public void saKey(long key) {
        this.saKey = key;
    }

    /** The QoS policy whose SLs PathRecords carry (OpenSM's qos_policy_file, with QoS on); null: none. */
    public void qosPolicy(QosPolicy p) {
        this.qosPolicy = p;
    }

    public SaSnapshot snapshot() {
        return snapshot;
    }

    /** SA requests answered. */
    public long answered() {
        return answered.get();
    }

    /** InformInfo subscriptions held, each as its subscriber gave it. */
    public List<byte[]> subscriptions() {
        return Collections.unmodifiableList(subscriptions.informInfos());
    }

    /** SA requests dropped for a non-zero SM_Key that is not the SA key. */
    public long refusedKeys() {
        return refusedKeys.get();
    }

    /** ReportResps taken from subscribers for the Reports sent them. */
    public long reportsAcknowledged() {
        return reportsAcknowledged.get();
    }

    /** Reports no ReportResp came for, after every retry. */
    public long reportsLost() {
        return reportsLost.get();
    }

    /** Takes one SA MAD: a request to answer, or an RMPP ACK/STOP/ABORT of a transfer in progress. */
    public void accept(ReceivedMad m) {
        byte[] in = m.mad();
        if (in.length < HEADER) {
            ignored.incrementAndGet();
            return;
        }
        byte[] mad = Arrays.copyOf(in, MadHeaders.MAD_SIZE);
        int rmppType = (int) SA.get(mad, 0, "RmppType");
        boolean active = (SA.get(mad, 0, "RmppFlags") & MadHeaders.RMPP_FLAG_ACTIVE) != 0;
        if (active && rmppType != MadHeaders.RMPP_TYPE_DATA && rmppType != 0) {
            rmpp.control(mad, m.from());
            return;
        }
        int method = MadHeaders.method(mad);
        if (Methods.isResponse(method)) {
            ignored.incrementAndGet();
            return;
        }
        long key = SA.get(mad, 0, "SaSMkey");
        if (key != 0 && key != saKey) {
            // as OpenSM: a request with an SM_Key that is neither 0 (untrusted) nor the SA key is not answered
            refusedKeys.incrementAndGet();
            return;
        }
        try {
            answer(mad, m.from());
            answered.incrementAndGet();
        } catch (RuntimeException e) {
            ignored.incrementAndGet();
            reply(mad, m.from(), MadStatus.SA_NO_RESOURCES, Methods.responseTo(method), new byte[0], 0);
        }
    }

    private void answer(byte[] mad, MadAddress from) {
        int method = MadHeaders.method(mad);
        int attr = MadHeaders.attributeId(mad);
        if (MadHeaders.MAD.get(mad, 0, "MadBaseVersion") != 1
                || MadHeaders.MAD.get(mad, 0, "MadClassVersion") != SA_CLASS_VERSION) {
            reply(mad, from, MadStatus.BAD_VERSION, Methods.responseTo(method), new byte[0], 0);
            return;
        }
        if (attr == AttributeIds.CLASS_PORT_INFO) {
            if (method != Methods.GET) {
                reply(mad, from, MadStatus.METHOD_ATTR_NOT_SUPPORTED, Methods.responseTo(method), new byte[0], 0);
                return;
            }
            reply(mad, from, MadStatus.OK, Methods.GET_RESP, classPortInfo(), 0);
            return;
        }
        Layout layout = ComponentMask.layout(attr);
        if (layout == null) {
            reply(mad, from, MadStatus.METHOD_ATTR_NOT_SUPPORTED, Methods.responseTo(method), new byte[0], 0);
            return;
        }
        byte[] template = Arrays.copyOfRange(mad, HEADER, HEADER + layout.size());
        long mask = SA.get(mad, 0, "SaCompMask");
        long mod = MadHeaders.attributeModifier(mad);
        SaSnapshot s = snapshot;
        switch (method) {
            case Methods.GET, Methods.GET_TABLE -> {
                if (s == null) {
                    reply(mad, from, MadStatus.SA_NO_RESOURCES, Methods.responseTo(method), new byte[0], 0);
                    return;
                }
                List<byte[]> records;
                try {
                    records = records(s, attr, template, mask, mod, from, SA.get(mad, 0, "SaSMkey") == saKey);
                } catch (SaException e) {
                    reply(mad, from, e.status, Methods.responseTo(method), new byte[0], 0);
                    return;
                }
                if (method == Methods.GET) {
                    if (records.size() != 1) {
                        reply(mad, from, records.isEmpty() ? MadStatus.SA_NO_RECORDS : MadStatus.SA_TOO_MANY_RECORDS,
                                Methods.GET_RESP, new byte[0], 0);
                    } else {
                        reply(mad, from, MadStatus.OK, Methods.GET_RESP, records.get(0), 0);
                    }
                    return;
                }
                int stride = SaAttributes.tableStride(layout);
                byte[] data = new byte[records.size() * stride];
                for (int i = 0; i < records.size(); i++) {
                    System.arraycopy(records.get(i), 0, data, i * stride, layout.size());
                }
                byte[] header = Arrays.copyOf(mad, HEADER);
                MadHeaders.MAD.set(header, 0, "MadIsResponse", 1);
                rmpp.start(header, stride / 8, data, from);
            }
            case Methods.SET -> {
                if (attr == AttributeIds.MC_MEMBER_RECORD) {
                    join(s, mad, from, template, mask);
                } else if (attr == AttributeIds.INFORM_INFO) {
                    subscribe(s, mad, from, template);
                } else if (attr == AttributeIds.SERVICE_RECORD) {
                    registerService(s, mad, from, template, mask);
                } else if (attr == AttributeIds.GUID_INFO_RECORD) {
                    aliasGuids(s, mad, from, template, mask, true);
                } else {
                    reply(mad, from, MadStatus.METHOD_ATTR_NOT_SUPPORTED, Methods.GET_RESP, new byte[0], 0);
                }
            }
            case Methods.DELETE -> {
                if (attr == AttributeIds.MC_MEMBER_RECORD) {
                    leave(s, mad, from, template, mask);
                } else if (attr == AttributeIds.SERVICE_RECORD) {
                    List<byte[]> gone = services.delete(template, mask);
                    reply(mad, from, gone.isEmpty() ? MadStatus.SA_NO_RECORDS : MadStatus.OK, Methods.DELETE_RESP,
                            gone.isEmpty() ? new byte[0] : gone.get(0), 0);
                } else if (attr == AttributeIds.GUID_INFO_RECORD) {
                    aliasGuids(s, mad, from, template, mask, false);
                } else {
                    reply(mad, from, MadStatus.METHOD_ATTR_NOT_SUPPORTED, Methods.DELETE_RESP, new byte[0], 0);
                }
            }
            default -> reply(mad, from, MadStatus.METHOD_NOT_SUPPORTED, Methods.responseTo(method), new byte[0], 0);
        }
    }

    /**
     * A query's records, filtered by its component mask. NodeRecords and PathRecords are, as OpenSM answers them,
     * only those the requester (the end port at the request's source LID) shares a partition with; a requester the
     * SA does not know (no end port has that LID) is refused, as OpenSM finds no requester port and answers nothing.
     * MCMemberRecords are one per member for a {@code trusted} query (or one naming a PortGID), else one per group,
     * and an untrusted requester sees only the groups of its partitions. PortInfoRecords show the M_Key to a trusted
     * requester only.
     */
    private List<byte[]> records(SaSnapshot s, int attr, byte[] template, long mask, long mod, MadAddress from,
                                 boolean trusted) {
        int requester = -1;
        if (attr == AttributeIds.NODE_RECORD || attr == AttributeIds.PATH_RECORD
                || ((attr == AttributeIds.MC_MEMBER_RECORD || attr == AttributeIds.SERVICE_RECORD) && !trusted)) {
            requester = s.endPortByLid(from.lid());
            if (requester < 0) {
                throw new SaException(MadStatus.SA_REQ_INVALID, "no requester port at LID " + from.lid());
            }
        }
        int req = requester;
        List<byte[]> all = switch (attr) {
            case AttributeIds.NODE_RECORD -> s.nodeRecords(req);
            case AttributeIds.PORT_INFO_RECORD -> trusted ? s.portInfoRecords() : hideMkeys(s.portInfoRecords());
            case AttributeIds.LINK_RECORD -> s.linkRecords();
            case AttributeIds.SWITCH_INFO_RECORD -> s.switchInfoRecords();
            case AttributeIds.LFT_RECORD -> s.lftRecords();
            case AttributeIds.P_KEY_TABLE_RECORD -> s.pkeyTableRecords();
            case AttributeIds.SM_INFO_RECORD -> smInfoRecords(s);
            case AttributeIds.MC_MEMBER_RECORD ->
                    mcMemberRecords(trusted || (mask & ComponentMask.MCMR_PORT_GID) != 0,
                            trusted ? null : pkey -> s.sharedPkeyWithGroup(req, pkey) != 0);
            case AttributeIds.PATH_RECORD -> Paths.records(s, template, mask, req, qosPolicy);
            case AttributeIds.INFORM_INFO -> subscriptions.informInfos();
            case AttributeIds.INFORM_INFO_RECORD -> subscriptions.records();
            case AttributeIds.GUID_INFO_RECORD -> s.guidInfoRecords(aliases);
            case AttributeIds.SERVICE_RECORD -> trusted ? services.records() : services.records().stream()
                    .filter(r -> visible(s, req, (int) Services.SR.get(r, 0, "ServRecPkey"))).toList();
            default -> List.of();
        };
        List<byte[]> out = new ArrayList<>();
        for (byte[] r : all) {
            if (ComponentMask.matches(attr, r, template, mask, mod)) {
                out.add(r);
            }
        }
        return out;
    }

    // ---- ServiceRecords

    private static final long SR_ID = ComponentMask.bit(AttributeIds.SERVICE_RECORD, "ServRecID");
    private static final long SR_GID = ComponentMask.bit(AttributeIds.SERVICE_RECORD, "ServRecGid");

    /** A service of P_Key {@code pkey} is seen by a requester in that partition (P_Key 0: by every one). */
    private static boolean visible(SaSnapshot s, int requester, int pkey) {
        return (pkey & 0x7fff) == 0 || s.sharedPkeyWithGroup(requester, pkey) != 0;
    }

    /**
     * SubnAdmSet(ServiceRecord): registers (or renews) the service; ServiceID and ServiceGID must be given
     * (0x0600 otherwise), the GID must be a port of the subnet (0x0200 otherwise). The answer is the record.
     */
    private void registerService(SaSnapshot s, byte[] mad, MadAddress from, byte[] t, long mask) {
        if ((mask & (SR_ID | SR_GID)) != (SR_ID | SR_GID)) {
            reply(mad, from, MadStatus.SA_INSUFFICIENT_COMPONENTS, Methods.GET_RESP, new byte[0], 0);
            return;
        }
        if (s == null || s.endPortByGuid(guidOf(Services.SR.getBytes(t, 0, "ServRecGid"))) < 0) {
            reply(mad, from, MadStatus.SA_REQ_INVALID, Methods.GET_RESP, new byte[0], 0);
            return;
        }
        reply(mad, from, MadStatus.OK, Methods.GET_RESP, services.register(t), 0);
    }

    // ---- alias GUIDs

    private static final Layout GIR = SaAttributes.GUID_INFO_RECORD;

    /**
     * SubnAdmSet/Delete(GUIDInfoRecord), as OpenSM takes them from any requester: the port at the record's LID,
     * the block its BlockNum names; the GUIDs the mask selects are assigned ({@link AliasGuids#assign}) or removed.
     * GUID 0 of block 0 (the port GUID) cannot be changed (0x0200, the request's record back), nor a port the SA does
     * not know. The answer is the block as it is now.
     */
    private void aliasGuids(SaSnapshot s, byte[] mad, MadAddress from, byte[] t, long mask, boolean set) {
        int method = set ? Methods.GET_RESP : Methods.DELETE_RESP;
        int lid = (int) GIR.get(t, 0, "Lid");
        int block = (int) GIR.get(t, 0, "BlockNum");
        int port = s == null ? -1 : s.endPortByLid(lid);
        int guid0 = Long.numberOfTrailingZeros(ComponentMask.bit(AttributeIds.GUID_INFO_RECORD, "Guid0"));
        if (port < 0 || s.lids().lid(port) != lid || (block == 0 && (mask & (1L << guid0)) != 0)) {
            reply(mad, from, MadStatus.SA_REQ_INVALID, method, t, 0);
            return;
        }
        long portGuid = s.topology().portGuid(port);
        int cap = s.guidCap(port);
        int[] indexes = new int[8];
        long[] guids = new long[8];
        int n = 0;
        for (int i = 0; i < 8; i++) {
            if ((mask & (1L << (guid0 + i))) != 0) {
                indexes[n] = block * 8 + i;
                guids[n++] = GIR.get(t, 0, "Guid" + i);
            }
        }
        if (set) {
            aliases.assign(portGuid, cap, Arrays.copyOf(indexes, n), Arrays.copyOf(guids, n));
        } else {
            for (int k = 0; k < n; k++) {
                if (indexes[k] > 0) {
                    aliases.set(portGuid, cap, indexes[k], 0);
                }
            }
        }
        byte[] answer = null;
        for (byte[] r : s.guidInfoRecords(aliases)) {
            if (GIR.get(r, 0, "Lid") == lid && GIR.get(r, 0, "BlockNum") == block) {
                answer = r;
                break;
            }
        }
        reply(mad, from, answer == null ? MadStatus.SA_REQ_INVALID : MadStatus.OK, method, answer == null ? t : answer,
                0);
        aliases.notifyChanged();
    }

    /** A GUIDInfo block the SM is to write into its port: SubnSet(GUIDInfo), the block number the modifier. */
    public record GuidBlock(long portGuid, int block, long[] guids) {
    }

    /**
     * The GUIDInfo blocks SubnAdmSet/Delete(GUIDInfoRecord) changed since the last call, each once, as they are
     * now (GUID 0 of block 0 the port GUID); the SM writes them into the ports, as OpenSM's SM does after its SA
     * answered. A port gone at a heavy sweep takes its aliases, and its blocks not yet written, with it.
     */
    public List<GuidBlock> takeAliasBlocks() {
        List<GuidBlock> out = new ArrayList<>();
        for (AliasGuids.Block b : aliases.takeChanged()) {
            out.add(new GuidBlock(b.portGuid(), b.block(), aliases.block(b.portGuid(), b.block())));
        }
        return out;
    }

    /** Called (on the SA's thread) when blocks wait for {@link #takeAliasBlocks}. */
    public void onAliasChange(Runnable r) {
        aliases.onChange(r);
    }

    /** The ServiceRecords registered. */
    public Services services() {
        return services;
    }

    private static final org.ibtwin.mad.Field PIR_MKEY = SaAttributes.PORT_INFO_RECORD.field("Mkey");

    /** IBA 15.2.5.3: a PortInfoRecord's M_Key is 0 but to a trusted requester (as OpenSM answers). */
    private static List<byte[]> hideMkeys(List<byte[]> records) {
        for (byte[] r : records) {
            PIR_MKEY.set(r, 0, 0);
        }
        return records;
    }

    private List<byte[]> smInfoRecords(SaSnapshot s) {
        Layout l = SaAttributes.SM_INFO_RECORD;
        byte[] r = new byte[l.size()];
        l.set(r, 0, "Lid", s.smLid());
        byte[] si = smInfo.get();
        System.arraycopy(si, 0, r, 4, Math.min(si.length, SmpAttributes.SM_INFO.size()));
        return List.of(r);
    }

    // ---- multicast groups

    /**
     * MCMemberRecords as OpenSM answers them: a trusted query (SA header SM_Key = the SA key) or one that names a
     * PortGID gets one record per member; any other one record per group, its PortGID and JoinState zeroed. An
     * untrusted requester sees only the groups of partitions its port is in ({@code inPartition} of the group's
     * P_Key; null: every group).
     */
    private List<byte[]> mcMemberRecords(boolean perMember, java.util.function.IntPredicate inPartition) {
        List<byte[]> out = new ArrayList<>();
        for (McGroups.View v : multicast.views()) {
            if (inPartition != null && !inPartition.test(v.group().pkey())) {
                continue;
            }
            if (!perMember) {
                out.add(groupRecord(v.group(), new byte[16], 0));
                continue;
            }
            for (McGroups.Member m : v.members()) {
                out.add(groupRecord(v.group(), m.portGid(), m.joinState()));
            }
        }
        return out;
    }

    private static byte[] groupRecord(SaSnapshot.Group g, byte[] portGid, int joinState) {
        byte[] r = new byte[MCMR.size()];
        MCMR.setBytes(r, 0, "McastMemMGid", g.mgid());
        MCMR.setBytes(r, 0, "McastMemPortGid", portGid);
        MCMR.set(r, 0, "McastMemQkey", g.qkey());
        MCMR.set(r, 0, "McastMemMLid", g.mlid());
        MCMR.set(r, 0, "McastMemMtuSelector", 2);
        MCMR.set(r, 0, "McastMemMTU", g.mtu());
        MCMR.set(r, 0, "McastMemTClass", g.tclass());
        MCMR.set(r, 0, "McastMemPkey", g.pkey() | 0x8000);
        MCMR.set(r, 0, "McastMemRateSelector", 2);
        MCMR.set(r, 0, "McastMemRate", g.rate());
        MCMR.set(r, 0, "McastMemPktLifeSelector", 2);
        MCMR.set(r, 0, "McastMemPktLife", g.pktLife());
        MCMR.set(r, 0, "McastMemSL", g.sl());
        MCMR.set(r, 0, "McastMemFlowLbl", g.flowLabel());
        MCMR.set(r, 0, "McastMemHopLimit", g.hopLimit());
        MCMR.set(r, 0, "McastMemScope", g.scope());
        MCMR.set(r, 0, "McastMemJoinState", joinState);
        return r;
    }

    /** The components a join must give to create the group it names (IBA 15.2.5.17; OpenSM's rule too). */
    private static final long CREATE_MASK = ComponentMask.MCMR_MGID | ComponentMask.MCMR_PORT_GID
            | ComponentMask.MCMR_JOIN_STATE | bit("McastMemQkey") | bit("McastMemTClass") | bit("McastMemPkey")
            | bit("McastMemFlowLbl") | bit("McastMemSL");

    private static long bit(String field) {
        return ComponentMask.bit(AttributeIds.MC_MEMBER_RECORD, field);
    }

    private void join(SaSnapshot s, byte[] mad, MadAddress from, byte[] t, long mask) {
        int state = (int) MCMR.get(t, 0, "McastMemJoinState") & 0x7;
        byte[] portGid = MCMR.getBytes(t, 0, "McastMemPortGid");
        int port = s == null ? -1 : s.endPortByGuid(guidOf(portGid));
        if ((mask & ComponentMask.MCMR_PORT_GID) == 0 || (mask & ComponentMask.MCMR_JOIN_STATE) == 0
                || state == 0 || port < 0) {
            reply(mad, from, MadStatus.SA_REQ_INVALID, Methods.GET_RESP, new byte[0], 0);
            return;
        }
        SaSnapshot.Group g = (mask & ComponentMask.MCMR_MGID) == 0 ? null
                : multicast.find(MCMR.getBytes(t, 0, "McastMemMGid"));
        if (g == null) {
            if ((mask & CREATE_MASK) != CREATE_MASK || (state & 1) == 0) {
                reply(mad, from, MadStatus.SA_INSUFFICIENT_COMPONENTS, Methods.GET_RESP, new byte[0], 0);
                return;
            }
            int pkey = (int) MCMR.get(t, 0, "McastMemPkey");
            if (s.sharedPkeyWithGroup(port, pkey) == 0) {
                reply(mad, from, MadStatus.SA_REQ_INVALID, Methods.GET_RESP, new byte[0], 0);
                return;
            }
            byte[] mgid = MCMR.getBytes(t, 0, "McastMemMGid");
            if (McGroups.isZero(mgid) || (mgid[0] & 0xff) != 0xff) {
                reply(mad, from, MadStatus.SA_INVALID_GID, Methods.GET_RESP, new byte[0], 0);
                return;
            }
            // as OpenSM: the record's scope, packet lifetime and hop limit as they came, whatever the mask says
            int scope = (int) MCMR.get(t, 0, "McastMemScope");
            SaSnapshot.Group proto = new SaSnapshot.Group(mgid, 0, pkey & 0x7fff | 0x8000,
                    (int) MCMR.get(t, 0, "McastMemQkey"),
                    chosen(t, mask, "McastMemMtuSelector", "McastMemMTU", DEFAULT_MTU),
                    chosen(t, mask, "McastMemRateSelector", "McastMemRate", DEFAULT_RATE),
                    (int) MCMR.get(t, 0, "McastMemSL"), scope,
                    (int) MCMR.get(t, 0, "McastMemPktLife"),
                    (int) MCMR.get(t, 0, "McastMemTClass"), (int) MCMR.get(t, 0, "McastMemFlowLbl"),
                    (int) MCMR.get(t, 0, "McastMemHopLimit"), false);
            g = multicast.create(proto, portGid, state);
            if (g == null) {
                reply(mad, from, MadStatus.SA_NO_RESOURCES, Methods.GET_RESP, new byte[0], 0);
                return;
            }
            reply(mad, from, MadStatus.OK, Methods.GET_RESP, groupRecord(g, portGid, state), 0);
            return;
        }
        if (s.sharedPkeyWithGroup(port, g.pkey()) == 0
                || ((mask & bit("McastMemQkey")) != 0 && MCMR.get(t, 0, "McastMemQkey") != g.qkey())
                || ((mask & bit("McastMemPkey")) != 0 && (MCMR.get(t, 0, "McastMemPkey") & 0x7fff)
                        != (g.pkey() & 0x7fff))
                || ((mask & bit("McastMemMLid")) != 0 && MCMR.get(t, 0, "McastMemMLid") != g.mlid())) {
            reply(mad, from, MadStatus.SA_REQ_INVALID, Methods.GET_RESP, new byte[0], 0);
            return;
        }
        int now = multicast.join(g, portGid, state);
        reply(mad, from, MadStatus.OK, Methods.GET_RESP, groupRecord(g, portGid, now), 0);
    }

    /** The IPoIB defaults for a created group: 2048-byte MTU, 10 Gb/s (OpenSM's). */
    private static final int DEFAULT_MTU = 4;
    private static final int DEFAULT_RATE = 3;

    /** A created group's MTU or rate from the join's selector and value: exactly, or one step past the bound. */
    private static int chosen(byte[] t, long mask, String selector, String value, int dflt) {
        if ((mask & bit(value)) == 0) {
            return dflt;
        }
        int v = (int) MCMR.get(t, 0, value);
        int sel = (mask & bit(selector)) == 0 ? 2 : (int) MCMR.get(t, 0, selector);
        return switch (sel) {
            case 0 -> v + 1;        // greater than
            case 1 -> Math.max(1, v - 1);   // less than
            case 2 -> v;            // exactly
            default -> dflt;        // the largest available
        };
    }

    private void leave(SaSnapshot s, byte[] mad, MadAddress from, byte[] t, long mask) {
        int state = (int) MCMR.get(t, 0, "McastMemJoinState") & 0x7;
        byte[] portGid = MCMR.getBytes(t, 0, "McastMemPortGid");
        SaSnapshot.Group g = (mask & ComponentMask.MCMR_MGID) == 0 ? null
                : multicast.find(MCMR.getBytes(t, 0, "McastMemMGid"));
        if (g == null || state == 0 || multicast.leave(g, portGid, state) < 0) {
            reply(mad, from, MadStatus.SA_REQ_INVALID, Methods.DELETE_RESP, new byte[0], 0);
            return;
        }
        reply(mad, from, MadStatus.OK, Methods.DELETE_RESP, groupRecord(g, portGid, state), 0);
    }

    // ---- InformInfo

    /**
     * SubnAdmSet(InformInfo): the requester's port (at the request's source LID) subscribes, or ends a subscription
     * (0x0200 when it has none that asks the same, or the SA knows no port at that LID).
     */
    private void subscribe(SaSnapshot s, byte[] mad, MadAddress from, byte[] t) {
        int port = s == null ? -1 : s.endPortByLid(from.lid());
        if (port < 0 || !subscriptions.set(s.gid(port), from.lid(), t)) {
            reply(mad, from, MadStatus.SA_REQ_INVALID, Methods.GET_RESP, t, 0);
            return;
        }
        reply(mad, from, MadStatus.OK, Methods.GET_RESP, t, 0);
    }

    /**
     * Forwards a trap the SM received (an SMP with a Notice) as SubnAdmReport(Notice) to every subscriber whose
     * InformInfo matches it ({@link Subscriptions#matching}): the Notice with the IssuerGID of the port at its
     * IssuerLID, to the subscriber's LID and the QP its InformInfo names; sent again when no ReportResp comes in
     * {@link #REPORT_TIMEOUT}, up to {@link #REPORT_RETRIES} times, then counted lost ({@link #reportsLost()}).
     * Returns the Reports sent.
     */
    public int report(byte[] trap) {
        Layout smp = SmpAttributes.NOTICE;
        Layout sa = SaAttributes.NOTICE;
        int offset = MadHeaders.SMP_DATA_OFFSET;
        int issuerLid = (int) smp.get(trap, offset, "NoticeIssuerLID");
        SaSnapshot s = snapshot;
        int issuer = s == null ? -1 : s.endPortByLid(issuerLid);
        byte[] issuerGid = issuer < 0 ? null : s.gid(issuer);
        int sent = 0;
        for (Subscriptions.Subscription sub : subscriptions.matching(smp.get(trap, offset, "NoticeIsGeneric") != 0,
                (int) smp.get(trap, offset, "NoticeType"), (int) smp.get(trap, offset, "NoticeProducerType"),
                (int) smp.get(trap, offset, "NoticeTrapNumber"), issuerLid, issuerGid)) {
            byte[] r = new byte[MadHeaders.MAD_SIZE];
            Layout h = MadHeaders.MAD;
            h.set(r, 0, "MadBaseVersion", 1);
            h.set(r, 0, "MadMgmtClass", MgmtClasses.SUBN_ADM);
            h.set(r, 0, "MadClassVersion", SA_CLASS_VERSION);
            h.set(r, 0, "MadMethod", Methods.REPORT);
            h.set(r, 0, "MadTRID", transport.nextTid());
            h.set(r, 0, "MadAttr", AttributeIds.NOTICE);
            System.arraycopy(trap, offset, r, HEADER, SmpAttributes.NOTICE.size());
            if (issuerGid != null) {
                sa.setBytes(r, HEADER, "NoticeIssuerGID", issuerGid);
            }
            try {
                transport.request(r, new MadAddress(sub.lid(), sub.qpn(), MadAddress.GSI_QKEY, 0, 0),
                        REPORT_TIMEOUT, REPORT_RETRIES).whenComplete((resp, ex) -> {
                            if (ex == null && resp != null && MadHeaders.method(resp) == Methods.REPORT_RESP) {
                                reportsAcknowledged.incrementAndGet();
                            } else {
                                reportsLost.incrementAndGet();
                            }
                        });
                sent++;
            } catch (RuntimeException e) {
                reportsLost.incrementAndGet();
            }
        }
        return sent;
    }

    // ---- responses

    private byte[] classPortInfo() {
        Layout c = PerfAttributes.CLASS_PORT_INFO;
        byte[] d = new byte[c.size()];
        c.set(d, 0, "BaseVersion", 1);
        c.set(d, 0, "ClassVersion", SA_CLASS_VERSION);
        c.set(d, 0, "CapabilityMask", CPI_CAP_MASK);
        c.set(d, 0, "RespTimeVal", 18);
        c.set(d, 0, "RedirectQP", 1);
        c.set(d, 0, "RedirectQKey", MadAddress.GSI_QKEY & 0xffffffffL);
        c.set(d, 0, "TrapQKey", MadAddress.GSI_QKEY & 0xffffffffL);
        return d;
    }

    /** A one-MAD response: the request's header, {@code status}, {@code method}, the record (if any). */
    private void reply(byte[] req, MadAddress to, int status, int method, byte[] record, int attrOffset) {
        byte[] r = new byte[MadHeaders.MAD_SIZE];
        System.arraycopy(req, 0, r, 0, HEADER);
        r[3] = (byte) method;
        MadHeaders.MAD.set(r, 0, "MadStatus", status);
        for (String f : new String[] {"RmppVers", "RmppType", "RmppResp", "RmppFlags", "RmppStatus", "RmppSegNum",
            "RmppPayload"}) {
            SA.set(r, 0, f, 0);
        }
        SA.set(r, 0, "SaAttrOffs", attrOffset);
        System.arraycopy(record, 0, r, HEADER, Math.min(record.length, MadHeaders.SA_DATA_SIZE));
        try {
            transport.send(r, to);
        } catch (RuntimeException e) {
            ignored.incrementAndGet();
        }
    }

    /** Thrown by a query the SA refuses: the status to answer with. */
    static final class SaException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int status;

        SaException(int status, String why) {
            super(why, null, false, false);
            this.status = status;
        }
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }

    private static long guidOf(byte[] gid) {
        long v = 0;
        for (int i = 8; i < 16; i++) {
            v = (v << 8) | (gid[i] & 0xff);
        }
        return v;
    }
}
