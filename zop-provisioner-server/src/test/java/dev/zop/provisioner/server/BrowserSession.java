package dev.zop.provisioner.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven through its own ChromeDriver: nothing is downloaded. {@code scripts/chromium.sh}
 * installs both (scripts/test.sh runs it); ZOP_CHROMIUM and ZOP_CHROMEDRIVER point elsewhere.
 */
final class BrowserSession implements AutoCloseable {
  static final Duration PATIENCE = Duration.ofSeconds(60);
  static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

  final ChromeDriver driver;
  private final Path profile;

  BrowserSession() {
    Path chromium = Path.of(System.getenv().getOrDefault("ZOP_CHROMIUM", "/usr/bin/chromium"));
    Path chromedriver = Path.of(System.getenv().getOrDefault("ZOP_CHROMEDRIVER", "/usr/bin/chromedriver"));
    if (!Files.isExecutable(chromium) || !Files.isExecutable(chromedriver)) {
      throw new IllegalStateException("the console's browser tests need Chromium and ChromeDriver (" + chromium + ", "
          + chromedriver + "): run scripts/chromium.sh, or set ZOP_CHROMIUM and ZOP_CHROMEDRIVER");
    }
    try {
      profile = Files.createTempDirectory("zop-console-chromium");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    // the machine's network is closed: Chromium's own background connections would only be refused
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-default-apps", "--window-size=1280,1000", "--user-data-dir=" + profile);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
        .usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
  }

  WebElement find(String css) {
    return until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
  }

  /** The element's text, read again should the page redraw the element between finding and reading it. */
  String text(String css) {
    return until(d -> d.findElement(By.cssSelector(css)).getText());
  }

  String attribute(String css, String name) {
    return until(d -> {
      String value = d.findElement(By.cssSelector(css)).getAttribute(name);
      return value == null ? "" : value;
    });
  }

  /** One attribute of every element the selector matches, read in one go inside the page. */
  @SuppressWarnings("unchecked")
  List<String> attributes(String css, String name) {
    return (List<String>) script("return [...document.querySelectorAll(arguments[0])]"
        + ".map(e => e.getAttribute(arguments[1]))", css, name);
  }

  List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  boolean present(String css) {
    return !driver.findElements(By.cssSelector(css)).isEmpty();
  }

  <T> T until(Function<? super WebDriver, T> condition) {
    // a page that redraws as the job moves replaces the element a condition just found: look again
    return new WebDriverWait(driver, PATIENCE, Duration.ofMillis(100))
        .ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(condition);
  }

  /** Waits until the element's text holds {@code text}, and answers the whole text. */
  String untilText(String css, String text) {
    until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(css), text));
    return driver.findElement(By.cssSelector(css)).getText();
  }

  void click(String css) {
    until(ExpectedConditions.elementToBeClickable(By.cssSelector(css))).click();
  }

  void type(String css, String text) {
    WebElement input = find(css);
    input.clear();
    input.sendKeys(text);
  }

  Object script(String js, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(js, args);
  }

  /** axe-core as npm serves it, installed beside the other third-party tools of the tests (contract-clients). */
  static final Path AXE = Path.of("..", "contract-clients", "node_modules", "axe-core", "axe.min.js");

  /**
   * The page's accessibility violations of serious or critical impact, as axe-core finds them: each as its rule,
   * impact, help and the elements at fault. Empty when there is none.
   */
  @SuppressWarnings("unchecked")
  List<String> seriousAccessibilityViolations() {
    if (!Files.isRegularFile(AXE)) {
      throw new IllegalStateException("axe-core is not installed at " + AXE.toAbsolutePath()
          + ": run npm ci --prefix contract-clients (scripts/test.sh does)");
    }
    if (!Boolean.TRUE.equals(script("return typeof window.axe === 'object'"))) {
      try {
        script(Files.readString(AXE));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Object found = ((JavascriptExecutor) driver).executeAsyncScript("const done = arguments[arguments.length - 1];"
        + "axe.run(document, { resultTypes: ['violations'] })"
        + ".then(r => done(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')"
        + "  .map(v => v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', '))))"
        + ".catch(e => done(['axe failed: ' + e]));");
    return (List<String>) found;
  }

  Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
