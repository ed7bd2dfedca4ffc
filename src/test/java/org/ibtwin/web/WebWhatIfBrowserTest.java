package org.ibtwin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Snapshot;
import org.ibtwin.format.FabricFiles;
import org.ibtwin.gen.FatTree;
import org.ibtwin.gen.FatTreeSpec;
import org.ibtwin.model.Fabric;
import org.ibtwin.model.Link;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.remote.RemoteWebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * {@code ibtwin web FABRIC --snapshots DIR} in a real headless Chromium: a what-if asked for on the page (a leaf's
 * only uplink pulled) lists the pairs lost and draws the route they had, and two snapshots compared show the link
 * gone on the map. The fabric: 6 hosts on 2 leaves of one spine, one uplink a leaf (3:1).
 */
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebWhatIfBrowserTest {
    private static final int WEB_PORT = 25510;
    private static final int DRIVER_PORT = 25550;
    private Browser browser;
    private RemoteWebDriver driver;
    private String url;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        Browser.programs();
        Fabric f = FatTree.build(FatTreeSpec.of(2, 4, 6).withBlocking(3));
        FabricFiles.write(f, dir.resolve("small"));
        Path snaps = Files.createDirectories(dir.resolve("snaps"));
        Snapshot.of(FabricState.of(f, "small.topo", null)).write(snaps.resolve("a-before.json"));
        Link up = f.byGuid(0x0002c90380000001L).port(4).link();   // leaf02/4
        f.disconnect(up);
        Snapshot.of(FabricState.of(f, "small.topo", null)).write(snaps.resolve("b-after.json"));
        Files.writeString(snaps.resolve("other.json"), "{\"not\": \"a snapshot\"}");
        browser = new Browser();
        Browser.Ibtwin web = browser.ibtwin("web", dir.resolve("small.topo").toString(), "--port",
                Integer.toString(WEB_PORT), "--snapshots", snaps.toString());
        url = web.url(Duration.ofSeconds(90));
        driver = browser.open(DRIVER_PORT, 1500, 900);
        driver.get(url);
        waitFor("window.ibtwin && window.ibtwin.ready", Duration.ofSeconds(30));
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    private void waitFor(String condition, Duration timeout) {
        try {
            new WebDriverWait(driver, timeout).pollingEvery(Duration.ofMillis(50))
                    .until(d -> Boolean.TRUE.equals(js("return !!(" + condition + ");")));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("not within " + timeout + ": " + condition + "; the page says: "
                    + js("return document.querySelector('.page.shown').innerText"), e);
        }
    }

    @Test
    void aPulledLeafUplinkShowsTheLostPairsAndTheirRouteOnTheMap() throws Exception {
        driver.get(url + "#what-if");
        waitFor("document.getElementById('wi-kinds').textContent.includes('pull-cable')", Duration.ofSeconds(10));
        driver.findElement(By.id("wi-changes")).sendKeys("pull-cable leaf01/4");
        driver.findElement(By.id("wi-run")).click();
        waitFor("document.getElementById('wi-summary')", Duration.ofSeconds(90));
        waitFor("ibtwin.whatIfDrawn === 0", Duration.ofSeconds(20));
        assertThat(driver.findElement(By.id("wi-title")).getText()).contains("pull the cable at leaf01/4");
        assertThat(driver.findElement(By.id("wi-summary")).getText()).startsWith("LOST: 9 of 15 host pairs");
        String groups = driver.findElement(By.id("wi-groups")).getText();
        assertThat(groups).contains("no route").contains("node001/1 <-> node004/1")
                .contains("node001/1 -> leaf01 1/4 -> spine01 1/2 -> leaf02 4/1 -> node004/1");
        assertThat(driver.findElement(By.id("wi-sm")).getText()).contains("LFT blocks to write");
        assertThat(driver.findElement(By.id("wi-bandwidth")).getText()).contains("all-to-all");
        // the route before: host link, leaf01 -> spine01, spine01 -> leaf02, host link; the racks of both ends unfolded
        @SuppressWarnings("unchecked")
        List<String> route = (List<String>) js("return ibtwin.wcy.edges('.route-before').map(e => e.data('label'))");
        assertThat(route).containsExactlyInAnyOrder("node001/1 <-> leaf01/1", "leaf01/4 <-> spine01/1",
                "leaf02/4 <-> spine01/2", "node004/1 <-> leaf02/1");
        assertThat(js("return ibtwin.wcy.edges('.route-before').not('.changed').style('line-color')")).isEqualTo("rgb(47,111,176)");
        // the pulled cable: marked on the map as what changed
        assertThat(js("return ibtwin.wcy.edges('.changed').map(e => e.data('label'))"))
                .isEqualTo(List.of("leaf01/4 <-> spine01/1"));
        assertThat(js("return ibtwin.wcy.nodes('.end').map(n => n.data('label')).sort()"))
                .isEqualTo(List.of("node001", "node004"));
        // and the served fabric is untouched: the main map's link is still up
        assertThat(js("return ibtwin.cy.edges().filter(e => e.data('label') === 'leaf01/4 <-> spine01/1')"
                + ".data('health')")).isEqualTo("ok");
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url
                + "api/links?q=health=down")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).contains("\"total\":0");
        // bad input is one line on the page
        driver.findElement(By.id("wi-changes")).clear();
        driver.findElement(By.id("wi-changes")).sendKeys("pull-cable leaf09/4");
        driver.findElement(By.id("wi-run")).click();
        waitFor("document.getElementById('wi-status').textContent.startsWith('refused')", Duration.ofSeconds(30));
        assertThat(driver.findElement(By.id("wi-status")).getText()).contains("leaf09");
    }

    @Test
    void twoSnapshotsComparedShowTheGoneLinkOnTheMap() {
        driver.get(url + "#snapshots");
        waitFor("document.getElementById('snap-b').options.length === 2", Duration.ofSeconds(10));
        driver.findElement(By.id("snap-compare")).click();
        waitFor("ibtwin.scy && ibtwin.snapshotDiff", Duration.ofSeconds(30));
        assertThat(driver.findElement(By.id("snap-summary")).getText()).contains("a-before.json")
                .contains("b-after.json").contains("1 gone");
        assertThat(js("return ibtwin.scy.edges('[diff=\"gone\"]').map(e => e.data('label'))"))
                .isEqualTo(List.of("leaf02/4 <-> spine01/2"));
        assertThat(js("return ibtwin.scy.edges('[diff=\"gone\"]').style('line-color')")).isEqualTo("rgb(208,32,32)");
        assertThat(js("return ibtwin.scy.nodes('[kind=\"switch\"]').length")).isEqualTo(3L);
        assertThat(driver.findElement(By.id("snap-text")).getText()).contains("links gone (1):")
                .contains("leaf02/4 <-> spine01/2");
    }
}
