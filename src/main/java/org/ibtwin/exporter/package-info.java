/**
 * {@code ibtwin exporter}: the fabric's port counters for Prometheus, under the metric names, labels and meanings of
 * the infiniband_exporter sites already graph. Like the diagnostic tools this package knows the fabric only through
 * MADs: discovery is {@link org.ibtwin.diag.NetDiscovery}'s, counters are read through
 * {@link org.ibtwin.diag.MadQuery}'s PMA queries with the layouts of {@link org.ibtwin.mad.PerfAttributes}; it never
 * imports {@code org.ibtwin.sim} (LayeringTest holds that).
 */
package org.ibtwin.exporter;
