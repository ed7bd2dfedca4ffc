package org.ibtwin.sm;

/**
 * The M_Key the SM puts on every port it manages (CA ports, switch port 0s), with its protect level and lease, as
 * OpenSM's m_key, m_key_protection_level and m_key_lease_period set them: every SMP the SM sends carries the key.
 * A key of 0 manages nothing (the ports' M_Key fields are left as they are).
 *
 * @param key         the M_Key (64-bit; 0: none)
 * @param protectBits M_KeyProtectBits, 0..3 (IBA 14.2.4.1: 0 a Get shows the key, 1 a Get hides it, 2 and 3 a Get
 *                    without the key fails; a Set without it always fails)
 * @param leasePeriod seconds a port stays protected after a refused SMP when no SMP with the key comes (0: for
 *                    ever)
 */
public record MKeys(long key, int protectBits, int leasePeriod) {
    public MKeys {
        if (protectBits < 0 || protectBits > 3) {
            throw new IllegalArgumentException("m_key_protection_level must be 0..3, not " + protectBits);
        }
        if (leasePeriod < 0 || leasePeriod > 0xffff) {
            throw new IllegalArgumentException("m_key_lease_period must be 0..65535 seconds, not " + leasePeriod);
        }
    }

    /** No M_Key (OpenSM's default). */
    public static MKeys none() {
        return new MKeys(0, 0, 0);
    }

    public boolean managed() {
        return key != 0;
    }
}
