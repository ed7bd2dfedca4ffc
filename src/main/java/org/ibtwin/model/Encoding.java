package org.ibtwin.model;

/** Line encodings used by InfiniBand links and PCIe, with their exact efficiency. */
public enum Encoding {
    B8B10B("8b/10b", 8, 10),
    B64B66B("64b/66b", 64, 66),
    B128B130B("128b/130b", 128, 130),
    /** HDR and later: PAM4 lanes whose data rate is a fixed fraction of the signalling rate once FEC and 256b/257b transcoding are paid. */
    PAM4_FEC("PAM4 RS-FEC", 64, 68),
    /** PCIe 6 FLIT mode: 236 of 256 bytes carry TLP payload. */
    FLIT("FLIT", 236, 256);

    private final String label;
    private final int dataBits;
    private final int lineBits;

    Encoding(String label, int dataBits, int lineBits) {
        this.label = label;
        this.dataBits = dataBits;
        this.lineBits = lineBits;
    }

    public String label() {
        return label;
    }

    /** Fraction of line bits that carry data. */
    public double efficiency() {
        return (double) dataBits / lineBits;
    }
}
