//! The few things only a browser can do: read the address, read a file the
//! learner picked, save a download, write the clipboard. Nothing here talks
//! to a network: downloads are object URLs made from memory.

use isolint_core::Date;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::share;
use crate::state::{Origin, PendingLink, Start, Status, DRAFT_PREFIX};

fn window() -> Result<web_sys::Window, String> {
    web_sys::window().ok_or_else(|| "no browser window".to_string())
}

fn js_error(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_into::<js_sys::Error>()
                .ok()
                .map(|err| String::from(err.message()))
        })
        .unwrap_or_else(|| "the browser refused".into())
}

/// Lowercase for the findings search (core's `view_model::Lowercase`) with the
/// browser's `toLowerCase`, so the page does not carry the standard
/// library's Unicode case tables. ASCII text, the common case, never
/// leaves the wasm. Natively (unit tests) it is `str::to_lowercase`.
pub fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::JsString::from(s).to_lower_case().into()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        s.to_lowercase()
    }
}

/// The browser's local calendar date.
fn local_today() -> Option<Date> {
    let now = js_sys::Date::new_0();
    let year = now.get_full_year();
    Some(Date {
        year: i32::try_from(year).ok()?,
        month: now.get_month() + 1,
        day: now.get_date(),
    })
}

/// What the page opens with: the profile of a shared link (fragment) or the
/// workshop profile, audited on `?today=` or the local date.
pub fn start() -> Start {
    let location = web_sys::window().map(|w| w.location());
    let search = location
        .as_ref()
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    let hash = location
        .as_ref()
        .and_then(|l| l.hash().ok())
        .unwrap_or_default();
    let mut notes: Vec<Status> = Vec::new();
    let pinned = share::today_from_query(&search);
    let today_pinned = matches!(pinned, Some(Ok(_)));
    let today = match pinned {
        Some(Ok(d)) => Some(d),
        Some(Err(message)) => {
            notes.push(Status::error(message));
            local_today()
        }
        None => local_today(),
    };
    let mut start = Start::workshop(today);
    start.today_pinned = today_pinned;
    match share::read_fragment(&hash) {
        // A link is its own context, never the lesson: its text, its name
        // (by format), its own draft.
        Some(Ok(link)) if link.confirm.is_none() => {
            start.name = crate::state::name_for("shared-link", &link.text);
            start.text = link.text;
            start.lesson = None;
            start.origin = Origin::Link;
            notes.push(Status::info("opened the profile carried by this link"));
        }
        // Too large to open unasked: the workshop profile shows until the
        // learner confirms.
        Some(Ok(link)) => {
            start.pending_link = Some(PendingLink {
                text: link.text.into(),
                reason: link.confirm.unwrap_or_default(),
            });
        }
        Some(Err(message)) => notes.push(Status::error(format!(
            "this link's profile could not be read ({message}); showing the workshop profile"
        ))),
        None => {}
    }
    start.status = notes.into_iter().max_by_key(|s| s.error);
    start
}

/// The page's address without its query and fragment, plus `#fragment`:
/// a shared link never carries `?today=`, which would pin the viewer's
/// audit date (an outdated runtime would look current).
pub fn link_with_fragment(fragment: &str) -> Result<String, String> {
    let location = window()?.location();
    let origin = location.origin().map_err(js_error)?;
    let path = location.pathname().map_err(js_error)?;
    Ok(format!("{origin}{path}#{fragment}"))
}

/// Read a file the learner picked or dropped.
pub async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    // Refuse before reading: a huge file would stall the page.
    if file.size() > isolint_core::json::Limits::default().max_bytes as f64 {
        return Err(crate::state::too_large(&file.name(), file.size() as u64));
    }
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(js_error)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Offer `text` as a file download, from memory (Blob + object URL).
pub fn download(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let document = window()?.document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(js_error)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js_error)?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(js_error)?
        .dyn_into()
        .map_err(|_| "could not create a link")?;
    anchor.set_href(&url);
    anchor.set_download(file_name);
    anchor.set_rel("noopener");
    anchor.click();
    // Let the browser start the download before the URL goes away.
    gloo_timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

/// Write `text` to the clipboard.
pub async fn copy_text(text: &str) -> Result<(), String> {
    let clipboard = window()?.navigator().clipboard();
    JsFuture::from(clipboard.write_text(text))
        .await
        .map(|_| ())
        .map_err(js_error)
}

/// Read text from the clipboard (the browser may ask the learner first).
pub async fn paste_text() -> Result<String, String> {
    let clipboard = window()?.navigator().clipboard();
    let value = JsFuture::from(clipboard.read_text())
        .await
        .map_err(js_error)?;
    value
        .as_string()
        .ok_or_else(|| "the clipboard holds no text".into())
}

/// The browser's local storage, if the page may use it (private windows and
/// some settings refuse it; drafts are then simply not kept).
fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// A saved draft, if any.
pub fn load_draft(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok().flatten()
}

/// Keep `text` under `key` in this browser only (never sent anywhere);
/// `None` forgets it.
pub fn save_draft(key: &str, text: Option<&str>) {
    if let Some(storage) = local_storage() {
        let _ = match text {
            Some(text) => storage.set_item(key, text),
            None => storage.remove_item(key),
        };
    }
}

/// Delete every draft this page kept in this browser.
pub fn forget_drafts() {
    let Some(storage) = local_storage() else {
        return;
    };
    let n = storage.length().unwrap_or(0);
    let keys: Vec<String> = (0..n)
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter(|k| k.starts_with(DRAFT_PREFIX))
        .collect();
    for key in keys {
        let _ = storage.remove_item(&key);
    }
}

/// The file carried by the address's fragment right now, for a link
/// pasted into the same tab (`hashchange`), checked against the caps.
pub fn fragment_link() -> Option<Result<share::LinkText, String>> {
    let hash = web_sys::window()?.location().hash().ok()?;
    share::read_fragment(&hash)
}

/// Move keyboard focus to the element with `id`.
pub fn focus(id: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = el {
        let _ = el.focus();
    }
}

/// A file name made from the profile name: letters, digits, `-`, `_`, `.`.
pub fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    let stem = stem.trim_matches(['-', '.']);
    if stem.is_empty() {
        "profile".into()
    } else {
        stem.into()
    }
}

#[cfg(test)]
mod tests {
    use super::file_stem;

    #[test]
    fn download_names_are_plain() {
        assert_eq!(file_stem("parser-tests"), "parser-tests");
        assert_eq!(
            file_stem("../<script>alert(1)</script>"),
            "script-alert-1---script"
        );
        assert_eq!(file_stem("..."), "profile");
        assert_eq!(file_stem(""), "profile");
    }
}
