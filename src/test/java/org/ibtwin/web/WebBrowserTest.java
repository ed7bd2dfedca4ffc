package org.ibtwin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.remote.RemoteWebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web view of {@code ibtwin up --web} on the default fabric, in a real headless Chromium: the map, a link's
 * details, a cable pulled in the console reaching the page, the ports table's filter and CSV, the doctor's page.
 */
@Tag("browser")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebBrowserTest {
    private static final int WEB_PORT = 24710;
    private static final int IBSIM_PORT = 24720;
    private static final int DRIVER_PORT = 24750;
    private Browser browser;
    private Browser.Ibtwin up;
    private RemoteWebDriver driver;
    private String url;

    @BeforeAll
    void start() throws Exception {
        Browser.programs();
        browser = new Browser();
        up = browser.ibtwin("up", "--web", Integer.toString(WEB_PORT), "--port", Integer.toString(IBSIM_PORT));
        url = up.url(Duration.ofSeconds(90));
        driver = browser.open(DRIVER_PORT, 1400, 900);
        driver.get(url);
        waitFor("window.ibtwin && window.ibtwin.ready", Duration.ofSeconds(30));
    }

    @AfterAll
    void stop() {
        if (up != null) {
            up.console.println("quit");
        }
        if (browser != null) {
            browser.close();
        }
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    private void waitFor(String condition, Duration timeout) {
        new WebDriverWait(driver, timeout).pollingEvery(Duration.ofMillis(50))
                .until(d -> Boolean.TRUE.equals(js("return !!(" + condition + ");")));
    }

    @Test
    @Order(1)
    void theMapShowsTheSwitchesAndTheHostsInRacks() {
        assertThat(((Number) js("return ibtwin.cy.nodes('[kind=\"switch\"]').length")).intValue()).isEqualTo(5);
        @SuppressWarnings("unchecked")
        List<Number> racks = (List<Number>) js("return ibtwin.cy.nodes('[kind=\"rack\"]').map(n => n.data('hosts'))");
        assertThat(racks).hasSize(3);
        assertThat(racks.stream().mapToInt(Number::intValue).sum()).isEqualTo(60);
        assertThat(driver.findElement(By.id("map-summary")).getText()).startsWith("5 switches, 3 racks (60 hosts)");
        // the canvas really drew: the map's first render happened
        assertThat(js("return ibtwin.firstPaint")).isNotNull();
        // a click where a rack is drawn shows it, and its button unfolds its 20 hosts
        @SuppressWarnings("unchecked")
        Map<String, Object> rack = (Map<String, Object>) js("const r = ibtwin.cy.nodes('[kind=\"rack\"]').first();"
                + " return {id: r.id(), p: r.renderedPosition()};");
        @SuppressWarnings("unchecked")
        Map<String, Number> p = (Map<String, Number>) rack.get("p");
        WebElement cy = driver.findElement(By.id("cy"));
        new Actions(driver).moveToElement(cy, p.get("x").intValue() - cy.getRect().getWidth() / 2,
                p.get("y").intValue() - cy.getRect().getHeight() / 2).click().perform();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> !d.findElements(By.id("rack-expand")).isEmpty());
        driver.findElement(By.id("rack-expand")).click();
        waitFor("ibtwin.cy.nodes('[kind=\"host\"]').length === 20", Duration.ofSeconds(10));
        assertThat(js("return ibtwin.cy.nodes('[kind=\"host\"]').every(n => n.parent().id() === arguments[0])",
                rack.get("id"))).isEqualTo(true);
        driver.findElement(By.id("map-collapse")).click();
        waitFor("ibtwin.cy.nodes('[kind=\"host\"]').length === 0", Duration.ofSeconds(10));
    }

    @Test
    @Order(2)
    void theDdrLinkIsDrawnDegradedAndItsDetailsNameBothEnds() {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> degraded = (List<Map<String, Object>>) js("return ibtwin.cy.edges('[health=\"degraded\"]')"
                + ".map(e => ({id: e.id(), colour: e.style('line-color'), p: e.renderedMidpoint()}))");
        assertThat(degraded).hasSize(1);
        assertThat(degraded.getFirst().get("colour")).isEqualTo("rgb(240,160,0)");
        // click it where it is drawn: the canvas's own hit test picks the edge
        String id = (String) degraded.getFirst().get("id");
        js("const cy = ibtwin.cy; cy.zoom(2.5); cy.center(cy.getElementById(arguments[0]));", id);
        @SuppressWarnings("unchecked")
        Map<String, Number> q = (Map<String, Number>) js("return ibtwin.cy.getElementById(arguments[0]).renderedMidpoint()",
                id);
        WebElement cy = driver.findElement(By.id("cy"));
        int w = cy.getRect().getWidth();
        int h = cy.getRect().getHeight();
        new Actions(driver).moveToElement(cy, q.get("x").intValue() - w / 2, q.get("y").intValue() - h / 2).click()
                .perform();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> !d.findElements(By.cssSelector("#details .link-name"))
                .isEmpty());
        String title = driver.findElement(By.cssSelector("#details .link-name")).getText();
        assertThat(title).isEqualTo("leaf02/33 <-> spine01/17");
        String details = driver.findElement(By.id("details")).getText();
        assertThat(details).contains("end A leaf02/33").contains("end B spine01/17").contains("could be 4xHDR")
                .contains("DDR").contains("T04");
        js("ibtwin.cy.fit(undefined, 20)");
    }

    @Test
    @Order(3)
    void thePortsTableFiltersAndExportsCsv() throws Exception {
        driver.get(url + "#ports");
        waitFor("document.querySelectorAll('#table tbody tr').length > 0", Duration.ofSeconds(10));
        int all = Integer.parseInt(driver.findElement(By.id("table")).getAttribute("data-total"));
        assertThat(all).isEqualTo(60 + 5 * 40);   // a port a host, 40 a switch (radix 40), linked or not
        driver.findElement(By.id("table-filter")).sendKeys("couldbe=4xhdr");
        waitFor("document.querySelector('#table').dataset.total === '2'", Duration.ofSeconds(10));
        List<String> nodes = driver.findElements(By.cssSelector("#table tbody tr td:first-child")).stream()
                .map(WebElement::getText).toList();
        assertThat(nodes).containsExactlyInAnyOrder("leaf02", "spine01");
        String href = driver.findElement(By.id("table-csv")).getAttribute("href");
        assertThat(href).contains("/api/ports.csv?q=couldbe%3D4xhdr");
        HttpResponse<String> csv = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(href)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(csv.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        List<String> lines = csv.body().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.getFirst()).startsWith("node,port,lid,state,phys,width,speed,couldBe,peer,");
        assertThat(lines.subList(1, 3)).anyMatch(l -> l.startsWith("leaf02,33,")).anyMatch(l -> l.startsWith(
                "spine01,17,")).allMatch(l -> l.contains(",4x,DDR,4xHDR,"));
    }

    @Test
    @Order(4)
    void theDoctorPageListsTheFindingsWithLinksIntoTheMap() {
        driver.get(url + "#doctor");
        waitFor("document.querySelectorAll('.finding').length > 0", Duration.ofSeconds(20));
        List<String> ids = driver.findElements(By.cssSelector(".finding")).stream()
                .map(e -> e.getAttribute("data-id")).toList();
        assertThat(ids).contains("T04", "T07", "T14");
        WebElement t04 = driver.findElement(By.cssSelector(".finding[data-id=T04] a.on-map"));
        t04.click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> !d.findElements(By.cssSelector("#details .link-name"))
                .isEmpty() && d.findElement(By.cssSelector("#details .link-name")).getText()
                .equals("leaf02/33 <-> spine01/17"));
        assertThat(js("return ibtwin.cy.$(':selected').map(e => e.data('health'))")).isEqualTo(List.of("degraded"));
    }

    @Test
    @Order(5)
    void aCablePulledInTheConsoleTurnsItsLinkDownOnThePageWithinTwoSeconds() {
        driver.get(url + "#map");
        waitFor("window.ibtwin && window.ibtwin.ready", Duration.ofSeconds(30));
        js("window.notReloaded = true;");
        String id = (String) js("return ibtwin.cy.edges('[kind=\"link\"]').filter(e => e.data('label') === "
                + "'leaf01/21 <-> spine01/1').id()");
        assertThat(id).isNotNull();
        assertThat(js("return ibtwin.cy.getElementById(arguments[0]).data('health')", id)).isEqualTo("ok");
        long t0 = System.nanoTime();
        up.console.println("Unlink \"leaf01\" 21");
        new WebDriverWait(driver, Duration.ofSeconds(5)).pollingEvery(Duration.ofMillis(20)).until(d -> "down".equals(
                js("return ibtwin.cy.getElementById(arguments[0]).data('health')", id)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("WebBrowserTest: a pulled cable reached the page in " + ms + " ms");
        assertThat(ms).isLessThan(2000);
        assertThat(js("return window.notReloaded === true")).isEqualTo(true);
        assertThat(js("return ibtwin.cy.getElementById(arguments[0]).style('line-color')", id))
                .isEqualTo("rgb(208,32,32)");
        assertThat((String) js("return document.getElementById('events').textContent"))
                .contains("leaf01/21 <-> spine01/1: down").contains("console Unlink \"leaf01\" 21");
    }

    @Test
    @Order(6)
    void theSmsStateChangesAreEvents() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url
                + "api/events")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).contains("\"kind\":\"sm\"").contains("SM DISCOVERING -> MASTER")
                .contains("\"state\":\"MASTER\"");
        driver.get(url + "#events");
        waitFor("document.querySelector('#events li[data-kind=\"sm\"]')", Duration.ofSeconds(10));
        assertThat(driver.findElement(By.cssSelector("#events li[data-kind=\"sm\"]")).getText())
                .contains("SM DISCOVERING -> MASTER");
    }
}
