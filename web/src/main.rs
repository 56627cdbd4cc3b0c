// talc instead of the standard library's dlmalloc: smaller in the page's
// wasm (see web/Cargo.toml).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    // The static loading screen of index.html gives way to the page.
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
    yew::Renderer::<isolint_web::App>::new().render();
}
