package org.ibtwin.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.gen.Shapes;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadStatus;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.model.LinkWidth;
import org.ibtwin.model.Node;
import org.ibtwin.model.PhysState;
import org.ibtwin.model.PortCounter;
import org.ibtwin.model.PortState;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.MadTimeoutException;
import org.junit.jupiter.api.Test;

class TwinSmaTest {
    private static final Duration T = Duration.ofMillis(100);
    private static final Layout NI = SmpAttributes.NODE_INFO;
    private static final Layout PI = SmpAttributes.PORT_INFO;
    private static final int D = Smps.DATA;

    private static Fabric tree() {
        return FatTree.build(FatTreeSpec.of(3, 8, 40));
    }

    private static byte[] call(TwinTransport t, byte[] mad) {
        return t.call(mad, MadAddress.directed(), T, 0);
    }

    @Test
    void directedRouteNodeInfoReachesEveryNodeOfAThreeLevelTree() {
        Fabric f = tree();
        Twin twin = Twin.of(f);
        Node host = f.cas().get(0);
        try (TwinTransport t = new TwinTransport(twin.attach(host.name(), 1))) {
            Map<Node, int[]> paths = ModelPaths.from(host, 1);
            assertThat(paths).hasSize(f.size());
            for (Map.Entry<Node, int[]> e : paths.entrySet()) {
                byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, e.getValue()));
                assertThat(Smps.status(r)).isZero();
                assertThat(r[3] & 0xff).isEqualTo(Methods.GET_RESP);
                assertThat(r[4] & 0x80).as("D bit").isEqualTo(0x80);
                assertThat(r[6]).as("hop pointer back at 0").isZero();
                Node n = e.getKey();
                assertThat(NI.get(r, D, "Guid")).isEqualTo(n.guid());
                assertThat(NI.get(r, D, "NodeType")).isEqualTo(n.type().code());
                assertThat(NI.get(r, D, "NumPorts")).isEqualTo(n.numPorts());
                int[] path = e.getValue();
                if (path.length > 0) {
                    int last = path[path.length - 1];
                    Node prev = path.length == 1 ? host : previous(paths, path);
                    assertThat(NI.get(r, D, "LocalPort")).isEqualTo(prev.port(last).remote().number());
                    // the return path holds each hop's ingress port
                    assertThat(r[192 + path.length]).isEqualTo((byte) prev.port(last).remote().number());
                }
            }
        }
        assertThat(twin.drops()).isZero();
    }

    private static Node previous(Map<Node, int[]> paths, int[] path) {
        for (Map.Entry<Node, int[]> e : paths.entrySet()) {
            if (e.getValue().length == path.length - 1
                    && java.util.Arrays.equals(e.getValue(), java.util.Arrays.copyOf(path, path.length - 1))) {
                return e.getKey();
            }
        }
        throw new AssertionError("no node at the path's prefix");
    }

    @Test
    void nodeDescriptionAndSwitchInfoAnswer() {
        Fabric f = Shapes.singleSwitch(3, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.NODE_DESC, 0, 1));
            assertThat(new String(r, D, 8)).isEqualTo("switch01");
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.SWITCH_INFO, 0, 1));
            Layout si = SmpAttributes.SWITCH_INFO;
            assertThat(si.get(r, D, "LinearFdbCap")).isEqualTo(0xC000);
            assertThat(si.get(r, D, "LinearFdbTop")).isZero();
            assertThat(si.get(r, D, "PartEnforceCap")).isEqualTo(64);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.SWITCH_INFO, 0));
            assertThat(Smps.status(r)).as("a CA has no SwitchInfo").isEqualTo(MadStatus.METHOD_ATTR_NOT_SUPPORTED);
        }
    }

    @Test
    void switchInfoPortStateChangeIsClearedByWritingOneAndSetByLinkEvents() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        Layout si = SmpAttributes.SWITCH_INFO;
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.SWITCH_INFO, 0, 1));
            assertThat(si.get(r, D, "StateChange")).as("links came up").isEqualTo(1);
            byte[] data = java.util.Arrays.copyOfRange(r, D, D + 64);
            si.set(data, 0, "LinearFdbTop", 100);
            r = call(t, Smps.drSet(t.nextTid(), AttributeIds.SWITCH_INFO, 0, data, 1));
            assertThat(si.get(r, D, "StateChange")).isZero();
            assertThat(si.get(r, D, "LinearFdbTop")).isEqualTo(100);
            assertThat(twin.linearFdbTop(f.switches().get(0).name())).isEqualTo(100);
            twin.linkDown(f.cas().get(1).name(), 1);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.SWITCH_INFO, 0, 1));
            assertThat(si.get(r, D, "StateChange")).isEqualTo(1);
            si.set(data, 0, "LinearFdbTop", 0xC000);
            assertThat(Smps.status(call(t, Smps.drSet(t.nextTid(), AttributeIds.SWITCH_INFO, 0, data, 1))))
                    .isEqualTo(MadStatus.INVALID_FIELD);
        }
    }

    @Test
    void portInfoReportsWidthsSpeedsAndStates() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.HDR);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 0));
            assertThat(PI.get(r, D, "LocalPort")).isEqualTo(1);
            assertThat(PI.get(r, D, "LinkState")).isEqualTo(PortState.INIT.code());
            assertThat(PI.get(r, D, "PhysLinkState")).isEqualTo(PhysState.LINK_UP.code());
            assertThat(PI.get(r, D, "LinkWidthActive")).isEqualTo(LinkWidth.X4.code());
            assertThat(PI.get(r, D, "LinkSpeedExtActive")).isEqualTo(LinkSpeed.HDR.extSpeedCode());
            assertThat(PI.get(r, D, "CapMask")).isEqualTo(TwinState.CA_CAP_MASK);
            // the switch: port 0, a linked port, an empty one
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 0, 1));
            assertThat(PI.get(r, D, "LinkState")).isEqualTo(PortState.ACTIVE.code());
            assertThat(PI.get(r, D, "LocalPort")).as("the port the SMP came in by").isEqualTo(1);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 2, 1));
            assertThat(PI.get(r, D, "LinkState")).isEqualTo(PortState.INIT.code());
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 5, 1));
            assertThat(PI.get(r, D, "LinkState")).isEqualTo(PortState.DOWN.code());
            assertThat(PI.get(r, D, "PhysLinkState")).isEqualTo(PhysState.POLLING.code());
        }
    }

    @Test
    void badAttributeModifierMethodAndVersionGetTheirStatuses() {
        Twin twin = Twin.of(Shapes.singleSwitch(2, 8, LinkSpeed.EDR));
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] r = call(t, Smps.drGet(t.nextTid(), 0x0099, 0, 1));
            assertThat(Smps.status(r)).isEqualTo(MadStatus.METHOD_ATTR_NOT_SUPPORTED);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 9, 1));
            assertThat(Smps.status(r)).as("port 9 of 8").isEqualTo(MadStatus.INVALID_FIELD);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.LINEAR_FWD_TABLE, 768, 1));
            assertThat(Smps.status(r)).as("LFT block past the cap").isEqualTo(MadStatus.INVALID_FIELD);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.P_KEY_TABLE, 2, 1));
            assertThat(Smps.status(r)).as("P_Key block 2 of port 0 (cap 8)").isEqualTo(MadStatus.INVALID_FIELD);
            r = call(t, Smps.dr(t.nextTid(), Methods.SEND, AttributeIds.NODE_INFO, 0, 1));
            assertThat(Smps.status(r)).isEqualTo(MadStatus.METHOD_NOT_SUPPORTED);
            assertThat(r[3] & 0xff).isEqualTo(Methods.GET_RESP);
            r = call(t, Smps.drSet(t.nextTid(), AttributeIds.NODE_INFO, 0, new byte[64], 1));
            assertThat(Smps.status(r)).as("NodeInfo is read-only").isEqualTo(MadStatus.METHOD_ATTR_NOT_SUPPORTED);
            assertThat(NI.get(r, D, "NodeType")).as("still answered").isEqualTo(2);
            byte[] v2 = Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1);
            v2[2] = 2;
            assertThat(Smps.status(call(t, v2))).isEqualTo(MadStatus.BAD_VERSION);
            byte[] trapRepress = Smps.dr(t.nextTid(), Methods.TRAP_REPRESS, AttributeIds.NOTICE, 0, 1);
            assertThatThrownBy(() -> call(t, trapRepress)).isInstanceOf(MadTimeoutException.class);
        }
    }

    @Test
    void portInfoSetMovesLidSmLidAndTheStateMachine() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        String sw = f.switches().get(0).name();
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            // LID and SM LID of the switch (port 0)
            byte[] pi = portInfo(t, 0, 1);
            PI.set(pi, 0, "Lid", 7);
            PI.set(pi, 0, "SMLid", 9);
            assertThat(Smps.status(set(t, pi, 0, 1))).isZero();
            assertThat(twin.lid(sw, 0)).isEqualTo(7);
            assertThat(twin.portAtLid(7).node().name()).isEqualTo(sw);
            pi = portInfo(t, 0, 1);
            assertThat(PI.get(pi, 0, "Lid")).isEqualTo(7);
            assertThat(PI.get(pi, 0, "SMLid")).isEqualTo(9);
            // switch port 1: Init -> Active is not a transition; Init -> Armed -> Active is
            pi = portInfo(t, 1, 1);
            PI.set(pi, 0, "LinkState", 4);
            assertThat(Smps.status(set(t, pi, 1, 1))).isEqualTo(MadStatus.INVALID_FIELD);
            assertThat(twin.portState(sw, 1)).isEqualTo(PortState.INIT);
            PI.set(pi, 0, "LinkState", 3);
            byte[] r = set(t, pi, 1, 1);
            assertThat(Smps.status(r)).isZero();
            assertThat(PI.get(r, D, "LinkState")).as("the answer shows the new state").isEqualTo(3);
            PI.set(pi, 0, "LinkState", 4);
            assertThat(Smps.status(set(t, pi, 1, 1))).isZero();
            assertThat(twin.portState(sw, 1)).isEqualTo(PortState.ACTIVE);
            assertThat(twin.portState(f.cas().get(0).name(), 1)).as("the other end stays").isEqualTo(PortState.INIT);
            // a port without a link cannot be armed
            pi = portInfo(t, 5, 1);
            PI.set(pi, 0, "LinkState", 3);
            assertThat(Smps.status(set(t, pi, 5, 1))).isEqualTo(MadStatus.INVALID_FIELD);
            // Down: the link goes down and trains again, both ends back at Init
            pi = portInfo(t, 1, 1);
            PI.set(pi, 0, "LinkState", 1);
            assertThat(Smps.status(set(t, pi, 1, 1))).isZero();
            assertThat(twin.portState(sw, 1)).isEqualTo(PortState.INIT);
            assertThat(twin.physState(sw, 1)).isEqualTo(PhysState.LINK_UP);
        }
    }

    @Test
    void disablingAPortTakesItsLinkDownUntilItPollsAgain() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        String sw = f.switches().get(0).name();
        String h2 = f.cas().get(1).name();
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] pi = portInfo(t, 2, 1);
            PI.set(pi, 0, "PhysLinkState", 3);
            assertThat(Smps.status(set(t, pi, 2, 1))).isZero();
            assertThat(twin.physState(sw, 2)).isEqualTo(PhysState.DISABLED);
            assertThat(twin.portState(sw, 2)).isEqualTo(PortState.DOWN);
            assertThat(twin.physState(h2, 1)).isEqualTo(PhysState.POLLING);
            assertThatThrownBy(() -> call(t, Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1, 2)))
                    .isInstanceOf(MadTimeoutException.class);
            pi = portInfo(t, 2, 1);
            PI.set(pi, 0, "PhysLinkState", 2);
            assertThat(Smps.status(set(t, pi, 2, 1))).isZero();
            assertThat(twin.physState(sw, 2)).isEqualTo(PhysState.LINK_UP);
            assertThat(twin.portState(h2, 1)).isEqualTo(PortState.INIT);
            assertThat(Smps.status(call(t, Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1, 2)))).isZero();
        }
    }

    @Test
    void enabledWidthAndSpeedTakeEffectWhenTheLinkTrainsAgain() {
        Fabric f = Shapes.singleSwitch(1, 4, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        String sw = f.switches().get(0).name();
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] pi = portInfo(t, 1, 1);
            PI.set(pi, 0, "LinkWidthEnabled", LinkWidth.X1.code());
            PI.set(pi, 0, "LinkSpeedExtEnabled", 30);   // extended speeds off
            assertThat(Smps.status(set(t, pi, 1, 1))).isZero();
            assertThat(twin.activeWidth(sw, 1)).as("not before training").isEqualTo(LinkWidth.X4);
            pi = portInfo(t, 1, 1);
            PI.set(pi, 0, "LinkState", 1);
            set(t, pi, 1, 1);
            assertThat(twin.activeWidth(sw, 1)).isEqualTo(LinkWidth.X1);
            assertThat(twin.activeSpeed(sw, 1)).isEqualTo(LinkSpeed.QDR);
            pi = portInfo(t, 1, 1);
            PI.set(pi, 0, "LinkWidthEnabled", LinkWidth.X8.code());
            assertThat(Smps.status(set(t, pi, 1, 1))).as("8x is not supported").isEqualTo(MadStatus.INVALID_FIELD);
        }
    }

    @Test
    void pkeyTablesAreSetAndReadByBlockAndPort() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.P_KEY_TABLE, 0));
            assertThat(r[D] & 0xff).isEqualTo(0xff);
            assertThat(r[D + 1] & 0xff).isEqualTo(0xff);
            byte[] keys = new byte[64];
            keys[0] = (byte) 0xff;
            keys[1] = (byte) 0xff;
            keys[2] = (byte) 0x80;
            keys[3] = 0x05;
            r = call(t, Smps.drSet(t.nextTid(), AttributeIds.P_KEY_TABLE, 1, keys));
            assertThat(Smps.status(r)).isZero();
            assertThat(r[D + 2] & 0xff).isEqualTo(0x80);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.P_KEY_TABLE, 1));
            assertThat(((r[D + 2] & 0xff) << 8) | (r[D + 3] & 0xff)).isEqualTo(0x8005);
            assertThat(t.attachment().pkeys()).hasSize(64).startsWith(0xffff, 0, 0, 0);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.P_KEY_TABLE, 2));
            assertThat(Smps.status(r)).as("a CA's table has 64 entries").isEqualTo(MadStatus.INVALID_FIELD);
            // a switch's external port: port in the modifier's top half
            r = call(t, Smps.drSet(t.nextTid(), AttributeIds.P_KEY_TABLE, (3L << 16) | 1, keys, 1));
            assertThat(Smps.status(r)).isZero();
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.P_KEY_TABLE, (3L << 16) | 1, 1));
            assertThat(r[D + 2] & 0xff).isEqualTo(0x80);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.P_KEY_TABLE, (9L << 16), 1));
            assertThat(Smps.status(r)).isEqualTo(MadStatus.INVALID_FIELD);
        }
    }

    @Test
    void guidInfoSlToVlVlArbAndMulticastTablesAnswer() {
        Fabric f = Shapes.singleSwitch(2, 20, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.GUID_INFO, 0));
            assertThat(Sma.getLong(r, D)).isEqualTo(f.cas().get(0).port(1).guid());
            byte[] g = new byte[64];
            Sma.putLong(g, 8, 0x1234);
            call(t, Smps.drSet(t.nextTid(), AttributeIds.GUID_INFO, 0, g));
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.GUID_INFO, 0));
            assertThat(Sma.getLong(r, D)).as("GUID 0 is the port's").isEqualTo(f.cas().get(0).port(1).guid());
            assertThat(Sma.getLong(r, D + 8)).isEqualTo(0x1234);
            assertThat(Smps.status(call(t, Smps.drGet(t.nextTid(), AttributeIds.GUID_INFO, 4))))
                    .isEqualTo(MadStatus.INVALID_FIELD);

            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.SL_TO_VL_TABLE, (1 << 8) | 2, 1));
            assertThat(Sma.getLong(r, D)).isEqualTo(Sma.DEFAULT_SL_TO_VL);
            byte[] map = new byte[64];
            call(t, Smps.drSet(t.nextTid(), AttributeIds.SL_TO_VL_TABLE, (1 << 8) | 2, map, 1));
            assertThat(Sma.getLong(call(t, Smps.drGet(t.nextTid(), AttributeIds.SL_TO_VL_TABLE, (1 << 8) | 2, 1)),
                    D)).isZero();
            assertThat(Sma.getLong(call(t, Smps.drGet(t.nextTid(), AttributeIds.SL_TO_VL_TABLE, (2 << 8) | 1, 1)),
                    D)).isEqualTo(Sma.DEFAULT_SL_TO_VL);

            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.VL_ARB_TABLE, (3L << 16) | 2, 1));
            assertThat(r[D + 1]).as("high table: VL0 weight 4").isEqualTo((byte) 4);
            assertThat(Smps.status(call(t, Smps.drGet(t.nextTid(), AttributeIds.VL_ARB_TABLE, (2L << 16) | 2, 1))))
                    .as("cap 8: no second block").isEqualTo(MadStatus.INVALID_FIELD);

            byte[] masks = new byte[64];
            masks[0] = 0x00;
            masks[1] = 0x06;
            long mod = (1L << 28) | 3;   // ports 16..31, MLIDs 0xC060..
            assertThat(Smps.status(call(t, Smps.drSet(t.nextTid(), AttributeIds.MCAST_FWD_TABLE, mod, masks, 1))))
                    .isZero();
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.MCAST_FWD_TABLE, mod, 1));
            assertThat(r[D + 1]).isEqualTo((byte) 6);
            assertThat(Smps.status(call(t, Smps.drGet(t.nextTid(), AttributeIds.MCAST_FWD_TABLE, 2L << 28, 1))))
                    .as("20 ports: positions 0 and 1").isEqualTo(MadStatus.INVALID_FIELD);
        }
    }

    @Test
    void mkeyProtectionDropsWhatTheKeyDoesNotOpen() {
        Fabric f = Shapes.singleSwitch(1, 4, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] pi = portInfo(t, 0, 1);
            PI.set(pi, 0, "Mkey", 0x1122334455667788L);
            PI.set(pi, 0, "ProtectBits", 1);
            assertThat(Smps.status(set(t, pi, 0, 1))).isZero();
            // level 1: a Get without the key answers, with the key hidden; a Set is dropped
            byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 0, 1));
            assertThat(PI.get(r, D, "Mkey")).isZero();
            assertThatThrownBy(() -> set(t, portInfo(t, 0, 1), 0, 1)).isInstanceOf(MadTimeoutException.class);
            assertThat(twin.drops(DropReason.M_KEY)).isEqualTo(1);
            // with the key
            byte[] get = Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 0, 1);
            Smps.DR.set(get, 0, "MadMkey", 0x1122334455667788L);
            r = call(t, get);
            assertThat(PI.get(r, D, "Mkey")).isEqualTo(0x1122334455667788L);
            assertThat(PI.get(r, D, "MkeyViolations")).isEqualTo(1);
            // level 2: a Get without the key is dropped too
            byte[] data = java.util.Arrays.copyOfRange(r, D, D + 64);
            PI.set(data, 0, "ProtectBits", 2);
            PI.set(data, 0, "LinkState", 0);
            PI.set(data, 0, "PhysLinkState", 0);
            byte[] s = Smps.drSet(t.nextTid(), AttributeIds.PORT_INFO, 0, data, 1);
            Smps.DR.set(s, 0, "MadMkey", 0x1122334455667788L);
            assertThat(Smps.status(call(t, s))).isZero();
            assertThatThrownBy(() -> call(t, Smps.drGet(t.nextTid(), AttributeIds.NODE_INFO, 0, 1)))
                    .isInstanceOf(MadTimeoutException.class);
        }
    }

    @Test
    void mellanoxExtendedPortInfoReportsFdr10() {
        Fabric f = Shapes.singleSwitch(1, 4, LinkSpeed.FDR10);
        Twin twin = Twin.of(f);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.MLNX_EXT_PORT_INFO, 1, 1));
            Layout mx = SmpAttributes.MLNX_EXT_PORT_INFO;
            assertThat(Smps.status(r)).isZero();
            assertThat(mx.get(r, D, "LinkSpeedActive")).isEqualTo(1);
            assertThat(mx.get(r, D, "LinkSpeedSupported")).isEqualTo(1);
            r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, 1, 1));
            assertThat(PI.get(r, D, "LinkSpeedActive")).as("FDR10 shows as QDR in PortInfo").isEqualTo(4);
        }
    }

    @Test
    void attachingNamesNodesByIdOrDescriptionAndRejectsOthers() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        Node sw = f.switches().get(0);
        Attachment a = twin.attach(null, 0);
        assertThat(a.nodeName()).isEqualTo(f.cas().get(0).name());
        assertThat(a.portNumber()).isEqualTo(1);
        assertThat(twin.attach("switch01").portNumber()).isZero();
        assertThat(twin.attach(sw.name(), 0).portGuid()).isEqualTo(sw.guid());
        assertThatThrownBy(() -> twin.attach("nosuch", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown node");
        assertThatThrownBy(() -> twin.attach(sw.name(), 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> twin.attach(f.cas().get(0).name(), 2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(NI.get(a.nodeInfo(), 0, "Guid")).isEqualTo(f.cas().get(0).guid());
        assertThat(PI.get(a.portInfo(), 0, "LocalPort")).isEqualTo(1);
        a.setIsSm(true);
        assertThat(PI.get(a.portInfo(), 0, "CapMask") & TwinState.CAP_IS_SM).isNotZero();
        a.detach();
        assertThat(PI.get(twin.attach(null, 0).portInfo(), 0, "CapMask") & TwinState.CAP_IS_SM).isZero();
    }

    @Test
    void aSinkThatSendsHasItsMadQueuedBehindTheCurrentOne() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        Attachment a = twin.attach(null, 0);
        List<Long> tids = new ArrayList<>();
        a.onReceive((mad, from) -> {
            long tid = Smps.DR.get(mad, 0, "MadTRID");
            tids.add(tid);
            if (tid < 3) {
                a.send(Smps.drGet(tid + 1, AttributeIds.NODE_INFO, 0, 1), MadAddress.directed());
                assertThat(tids).hasSize((int) tid);   // not answered yet: queued
            }
        });
        a.send(Smps.drGet(1, AttributeIds.NODE_INFO, 0, 1), MadAddress.directed());
        assertThat(tids).containsExactly(1L, 2L, 3L);
    }

    /**
     * A sink owns the MADs it is given: later MADs leave them as they were. One that says it only borrows them is
     * lent the twin's own buffer instead (no copy), which the next MAD overwrites.
     */
    @Test
    void sinksOwnTheirMadsUnlessTheyBorrowThem() {
        Fabric f = Shapes.singleSwitch(2, 8, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        for (boolean borrows : new boolean[] {false, true}) {
            Attachment a = twin.attach(null, 0);
            List<byte[]> got = new ArrayList<>();
            List<Long> tidsAtReceipt = new ArrayList<>();
            a.onReceive(new MadSink() {
                @Override
                public void receive(byte[] mad, MadAddress from) {
                    got.add(mad);
                    tidsAtReceipt.add(Smps.DR.get(mad, 0, "MadTRID"));
                }

                @Override
                public boolean borrows() {
                    return borrows;
                }
            });
            for (long tid = 1; tid <= 3; tid++) {
                a.send(Smps.drGet(tid, AttributeIds.NODE_INFO, 0, 1), MadAddress.directed());
            }
            assertThat(tidsAtReceipt).containsExactly(1L, 2L, 3L);
            if (borrows) {
                assertThat(got).allSatisfy(m -> assertThat(m).isSameAs(got.get(0)));
            } else {
                assertThat(got.stream().map(m -> Smps.DR.get(m, 0, "MadTRID")).toList()).containsExactly(1L, 2L, 3L);
            }
            a.detach();
        }
    }

    @Test
    void syncModelWritesTheTwinsStateBack() {
        Fabric f = Shapes.singleSwitch(1, 4, LinkSpeed.EDR);
        Twin twin = Twin.of(f);
        twin.setCounter(f.cas().get(0).name(), 1, PortCounter.SYMBOL_ERROR, 70000);
        try (TwinTransport t = new TwinTransport(twin.attach(null, 0))) {
            byte[] pi = portInfo(t, 0, 1);
            PI.set(pi, 0, "Lid", 3);
            set(t, pi, 0, 1);
        }
        twin.syncModel();
        assertThat(f.switches().get(0).port(0).lid()).isEqualTo(3);
        assertThat(f.cas().get(0).port(1).counter(PortCounter.SYMBOL_ERROR)).isEqualTo(0xffff);
        assertThat(f.cas().get(0).port(1).counter(PortCounter.XMIT_PKTS)).isPositive();
    }

    static byte[] portInfo(TwinTransport t, int port, int... path) {
        byte[] r = call(t, Smps.drGet(t.nextTid(), AttributeIds.PORT_INFO, port, path));
        assertThat(Smps.status(r)).isZero();
        byte[] pi = java.util.Arrays.copyOfRange(r, D, D + 64);
        PI.set(pi, 0, "LinkState", 0);
        PI.set(pi, 0, "PhysLinkState", 0);
        return pi;
    }

    static byte[] set(TwinTransport t, byte[] pi, int port, int... path) {
        return call(t, Smps.drSet(t.nextTid(), AttributeIds.PORT_INFO, port, pi, path));
    }
}
