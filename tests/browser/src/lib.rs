//! A harness for driving the built page (`dist/`) in headless Chromium.
//!
//! Every [`Page`] starts its own static server (`python3 -m http.server`)
//! and its own `chromedriver`, each on a free port, and stops both when it
//! is closed or dropped. Nothing is skipped: a missing `dist/` or a missing
//! `chromedriver` is a failure with a message saying what to run.

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

/// The audit date every test pins with `?today=`, so exports are comparable.
pub const TODAY: &str = "2026-11-29";

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|e| panic!("cannot resolve the repository root: {e}"))
}

/// Where screenshots go (for a person to look at): `target/e2e-screens/`.
pub fn screens_dir() -> PathBuf {
    let dir = repo_root().join("target/e2e-screens");
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// Browser sessions share two cores with everything else: one at a time.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("no free port: {e}"));
    listener
        .local_addr()
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("no port: {e}"))
}

fn wait_for_port(port: u16, what: &str, child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited before listening on port {port}: {status}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} did not listen on port {port} within 20 s");
}

/// A process we started, in its own process group, killed with its
/// children (Chrome under chromedriver) when dropped.
struct Spawned {
    child: Child,
    name: &'static str,
}

impl Spawned {
    fn start(name: &'static str, cmd: &mut Command, hint: &str) -> Spawned {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        match cmd.spawn() {
            Ok(child) => Spawned { child, name },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                panic!("`{name}` was not found on PATH ({e}). {hint}")
            }
            Err(e) => panic!("could not start `{name}`: {e}"),
        }
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        // The group id is the child's pid (process_group(0) above).
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = self.name;
    }
}

/// One browser session on the page, with its own server and driver.
pub struct Page {
    pub client: Client,
    /// `http://127.0.0.1:PORT`
    pub origin: String,
    /// Chrome saves downloads here.
    pub downloads: PathBuf,
    driver: Spawned,
    server: Spawned,
    _turn: MutexGuard<'static, ()>,
}

impl Page {
    /// Serve `dist/`, start chromedriver, open `path` (e.g. `/?today=…`) and
    /// wait until the page has audited its first profile.
    // The turn is held on purpose for the page's whole life, awaits
    // included: each test runs its own single-threaded runtime on its own
    // thread, so the lock only makes other tests' threads wait for theirs.
    #[allow(clippy::await_holding_lock)]
    pub async fn open(path: &str) -> Page {
        let turn = ONE_BROWSER
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let root = repo_root();
        let dist = root.join("dist");
        assert!(
            dist.join("index.html").is_file(),
            "{} is missing: build the page first with scripts/build-web.sh",
            dist.join("index.html").display()
        );

        let web_port = free_port();
        let mut server = Spawned::start(
            "python3",
            Command::new("python3")
                .args([
                    "-m",
                    "http.server",
                    &web_port.to_string(),
                    "--bind",
                    "127.0.0.1",
                    "--directory",
                ])
                .arg(&dist),
            "Install Python 3 to serve dist/.",
        );
        wait_for_port(web_port, "the static server", &mut server.child);

        let driver_port = free_port();
        let mut driver = Spawned::start(
            "chromedriver",
            Command::new("chromedriver").arg(format!("--port={driver_port}")),
            "Install it with scripts/setup.sh (Debian package chromium-driver).",
        );
        wait_for_port(driver_port, "chromedriver", &mut driver.child);

        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let downloads = root.join(format!(
            "target/e2e-downloads/{}-{stamp}",
            std::process::id()
        ));
        std::fs::create_dir_all(&downloads)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", downloads.display()));

        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-quic", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--window-size=1200,800"
                ],
                "prefs": {
                    "download.default_directory": downloads.to_string_lossy(),
                    "download.prompt_for_download": false
                }
            }
        });
        let Value::Object(caps) = caps else {
            unreachable!("capabilities are an object")
        };
        let client = ClientBuilder::rustls()
            .unwrap_or_else(|e| panic!("TLS setup for the WebDriver client failed: {e}"))
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{driver_port}"))
            .await
            .unwrap_or_else(|e| {
                panic!("chromedriver refused a session (is chromium installed?): {e}")
            });

        let origin = format!("http://127.0.0.1:{web_port}");
        let page = Page {
            client,
            origin,
            downloads,
            driver,
            server,
            _turn: turn,
        };
        page.goto(path).await;
        page
    }

    /// Navigate within the page's origin and wait for the first audit.
    pub async fn goto(&self, path: &str) {
        let url = format!("{}{}", self.origin, path);
        self.client
            .goto(&url)
            .await
            .unwrap_or_else(|e| panic!("cannot open {url}: {e}"));
        self.client
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css(".app[data-audit-count]"))
            .await
            .unwrap_or_else(|e| panic!("the page did not start at {url} within 30 s: {e}"));
    }

    /// Run a script (`return …`) in the page.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// The root element's data attribute `name` (without `data-`).
    pub async fn app_attr(&self, name: &str) -> String {
        let v = self
            .js(
                &format!("return document.querySelector('.app').dataset['{name}'] ?? null;"),
                vec![],
            )
            .await;
        v.as_str().map(str::to_string).unwrap_or_default()
    }

    pub async fn verdict(&self) -> String {
        self.app_attr("verdict").await
    }

    pub async fn audit_count(&self) -> u64 {
        self.app_attr("auditCount").await.parse().unwrap_or(0)
    }

    /// Wait until an audit newer than `after` has run and describes the
    /// editor's current text.
    pub async fn wait_audit(&self, after: u64) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let count = self.audit_count().await;
            let settled = self.app_attr("revision").await == self.app_attr("audited").await;
            if count > after && settled {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "no audit after #{after} within 10 s (now #{count})"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Replace the editor's text as a paste would (one `input` event), then
    /// wait for the debounced audit.
    pub async fn paste(&self, text: &str) {
        let before = self.audit_count().await;
        self.js(
            "const ta = document.getElementById('profile-editor');
             ta.focus();
             ta.value = arguments[0];
             ta.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
             return null;",
            vec![Value::String(text.to_string())],
        )
        .await;
        self.wait_audit(before).await;
    }

    /// The editor's text.
    pub async fn editor_text(&self) -> String {
        let v = self
            .js(
                "return document.getElementById('profile-editor').value;",
                vec![],
            )
            .await;
        v.as_str().map(str::to_string).unwrap_or_default()
    }

    /// Click the element matching a CSS selector.
    pub async fn click(&self, css: &str) {
        let el = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element `{css}`: {e}"));
        el.click()
            .await
            .unwrap_or_else(|e| panic!("cannot click `{css}`: {e}"));
    }

    /// Save a screenshot as `target/e2e-screens/NAME.png`.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self
            .client
            .screenshot()
            .await
            .unwrap_or_else(|e| panic!("screenshot failed: {e}"));
        let path = screens_dir().join(format!("{name}.png"));
        std::fs::write(&path, png)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }

    /// Wait for a finished download whose name ends with `suffix`.
    pub async fn downloaded(&self, suffix: &str) -> PathBuf {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Ok(entries) = std::fs::read_dir(&self.downloads) {
                for entry in entries.flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    if name.ends_with(suffix) {
                        return entry.path();
                    }
                }
            }
            assert!(
                Instant::now() < deadline,
                "no download ending in `{suffix}` appeared in {} within 15 s",
                self.downloads.display()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Every URL the page has requested so far (navigation and resources).
    pub async fn requested_urls(&self) -> Vec<String> {
        let v = self
            .js(
                "return performance.getEntriesByType('navigation')
                    .concat(performance.getEntriesByType('resource'))
                    .map(e => e.name);",
                vec![],
            )
            .await;
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// End the session and stop the driver and the server.
    pub async fn close(self) {
        let Page {
            client,
            driver,
            server,
            ..
        } = self;
        let _ = client.close().await;
        drop(driver);
        drop(server);
    }
}
