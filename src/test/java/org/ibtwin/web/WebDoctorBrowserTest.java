package org.ibtwin.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.ibtwin.doctor.Doctor;
import org.ibtwin.doctor.FabricState;
import org.ibtwin.doctor.Thresholds;
import org.ibtwin.format.FabricFiles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.remote.RemoteWebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page does not wait for the doctor, in a real headless Chromium: with the doctor held back (a big fabric's first
 * examination), the map is drawn and the doctor's page shows its progress; let go, the page lists its findings.
 */
@Tag("browser")
class WebDoctorBrowserTest {
    private static final int WEB_PORT = 27310;
    private static final int DRIVER_PORT = 27350;

    @Test
    void theMapIsDrawnWhileTheDoctorIsStillExaminingAndItsPageShowsProgress() throws Exception {
        Browser.programs();
        CountDownLatch go = new CountDownLatch(1);
        FabricState s = FabricState.of(FabricFiles.loadDefault(), "default (built-in)", "default.yaml");
        try (Monitor m = new Monitor(WebSource.fixed("default (built-in)", s), new Events(), 1000, st -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Doctor.examine(st, new Thresholds());
        });
             WebServer server = WebServer.start(m, new Events(), WEB_PORT);
             Browser browser = new Browser()) {
            m.doctorStatus();   // someone asked for the doctor first: it is under way, held
            RemoteWebDriver driver = browser.open(DRIVER_PORT, 1400, 900);
            JavascriptExecutor js = driver;
            driver.get(server.url() + "#doctor");
            new WebDriverWait(driver, Duration.ofSeconds(30)).pollingEvery(Duration.ofMillis(50))
                    .until(d -> Boolean.TRUE.equals(js.executeScript("return !!(window.ibtwin && ibtwin.ready "
                            + "&& ibtwin.firstPaint !== null)")));
            assertThat(((Number) js.executeScript("return ibtwin.cy.nodes('[kind=\"switch\"]').length")).intValue())
                    .isEqualTo(5);
            assertThat(((Number) js.executeScript("return ibtwin.timings.before")).doubleValue())
                    .as("the map is asked for before anything else").isLessThan(1000);
            new WebDriverWait(driver, Duration.ofSeconds(10)).until(d -> "examining".equals(
                    d.findElement(By.id("doctor-summary")).getAttribute("data-progress")));
            assertThat(driver.findElement(By.id("doctor-summary")).getText())
                    .startsWith("The doctor is examining the fabric: 0 of ");
            assertThat(driver.findElements(By.cssSelector(".finding"))).isEmpty();
            assertThat(m.doctorStatus()).containsEntry("ready", false).containsEntry("examining", true);
            go.countDown();
            new WebDriverWait(driver, Duration.ofSeconds(20)).until(d -> !d.findElements(By.cssSelector(".finding"))
                    .isEmpty());
            List<String> ids = driver.findElements(By.cssSelector(".finding")).stream()
                    .map((WebElement e) -> e.getAttribute("data-id")).toList();
            assertThat(ids).contains("T04", "T07", "T14");
            assertThat(driver.findElement(By.id("doctor-summary")).getText()).endsWith(" findings.");
        } finally {
            go.countDown();
        }
    }
}
