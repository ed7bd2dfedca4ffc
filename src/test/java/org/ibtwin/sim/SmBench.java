package org.ibtwin.sim;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.mad.AttributeIds;
import org.ibtwin.mad.Layout;
import org.ibtwin.mad.MadHeaders;
import org.ibtwin.mad.Methods;
import org.ibtwin.mad.SmpAttributes;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.LinkSpeed;
import org.ibtwin.transport.MadAddress;
import org.ibtwin.transport.ReceivedMad;

/**
 * A twin of a small 2-level EDR fat tree (leaf01, leaf02, spine01; node001..node008, four uplinks a leaf: leafNN
 * ports 5..8) brought up by {@link MiniSm} from node001, whose attachment is then the SM (IsSM set) and records what
 * arrives unasked: the traps. MiniSm's min-hop routes use the lowest port among equals, so leaf02 port 8 (spine01
 * port 8) carries no route: taking it down loses no trap or repress.
 */
final class SmBench implements AutoCloseable {
    static final Layout N128 = SmpAttributes.NOTICE_TRAP_128;
    static final Layout N144 = SmpAttributes.NOTICE_TRAP_144;
    static final int D = Smps.DATA;

    final Fabric fabric;
    final Twin twin;
    final TwinTransport sm;
    final MiniSm mini;
    final List<ReceivedMad> traps = new CopyOnWriteArrayList<>();
    /** Answer every trap with a TrapRepress at once. */
    volatile boolean autoRepress;

    SmBench() {
        this(FatTree.build(FatTreeSpec.of(2, 8, 8).withSpeed(LinkSpeed.EDR)));
    }

    SmBench(Fabric f) {
        fabric = f;
        twin = Twin.of(f);
        sm = new TwinTransport(twin.attach("node001", 1));
        mini = new MiniSm(sm).bringUp();
        sm.onUnsolicited(m -> {
            if ((m.mad()[3] & 0x7f) == Methods.TRAP) {
                traps.add(m);
                if (autoRepress) {
                    repress(m);
                }
            }
        });
        sm.attachment().setIsSm(true);   // its port traps 144 to itself, the SM now: repressed, forgotten
        traps.forEach(this::repress);
        traps.clear();
    }

    /** Sends the TrapRepress for {@code trap}: LID-routed back to its issuer, same TID and M_Key, the Notice echoed. */
    void repress(ReceivedMad trap) {
        byte[] r = Smps.lid(MadHeaders.tid(trap.mad()), Methods.TRAP_REPRESS, AttributeIds.NOTICE, 0);
        System.arraycopy(trap.mad(), D, r, D, 64);
        System.arraycopy(trap.mad(), 24, r, 24, 8);   // the M_Key the trap carried
        sm.send(r, MadAddress.smp(trap.from().lid()));
    }

    static int number(ReceivedMad trap) {
        return (int) N128.get(trap.mad(), D, "NoticeTrapNumber");
    }

    static long tid(ReceivedMad trap) {
        return MadHeaders.tid(trap.mad());
    }

    List<ReceivedMad> traps(int number) {
        return traps.stream().filter(m -> number(m) == number).toList();
    }

    int lidOf(String node) {
        return twin.lid(node, fabric.byName(name(node)).isSwitch() ? 0 : 1);
    }

    String name(String node) {
        for (var n : fabric.nodes()) {
            if (n.name().equals(node) || n.description().equals(node)
                    || n.description().startsWith(node + " ")) {
                return n.name();
            }
        }
        throw new IllegalArgumentException(node);
    }

    @Override
    public void close() {
        sm.close();
    }
}
