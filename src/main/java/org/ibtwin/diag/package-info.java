/**
 * The diagnostic tools' shared query layer, what libibmad is to infiniband-diags: {@link org.ibtwin.diag.MadQuery}
 * sends SMPs (LID routed, directed route, combined), PerfMgt and SA queries over a
 * {@link org.ibtwin.transport.MadTransport} and checks the answers; {@link org.ibtwin.diag.Addresses} reads
 * destinations the way the tools do; {@link org.ibtwin.diag.SmpQueries}, {@link org.ibtwin.diag.PerfQueries} and
 * {@link org.ibtwin.diag.SaQueries} (with {@link org.ibtwin.diag.SaRecords}, saquery's record dumps) run the real
 * tools' query sequences and print their text. Like the SM, this package knows the fabric only through
 * MADs: it never imports {@code org.ibtwin.sim} (LayeringTest holds that).
 */
package org.ibtwin.diag;
