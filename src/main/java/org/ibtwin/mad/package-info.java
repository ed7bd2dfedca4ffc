/**
 * The MAD codec: one declarative {@link org.ibtwin.mad.Layout} per MAD header and attribute (DESIGN.md rule 2), from
 * which encoding, decoding and the {@code smpquery}/{@code perfquery}-style dump all come.
 *
 * <p>Bit offsets are the IBA specification's: big-endian, bit 0 is the most significant bit of the attribute's first
 * byte. Field names are the ones libibmad gives its fields (and so the ones the real tools print); fields libibmad
 * does not describe carry names in the same style. {@link org.ibtwin.mad.Attributes} finds an attribute's layout
 * by management class and attribute id; {@link org.ibtwin.mad.MadHeaders} holds the MAD headers;
 * {@link org.ibtwin.mad.Dumps} prints what smpquery, perfquery and sminfo print, header lines included.
 *
 * <p>This package depends on nothing but the JDK.
 */
package org.ibtwin.mad;
