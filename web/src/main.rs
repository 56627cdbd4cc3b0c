// talc instead of the standard library's dlmalloc: smaller in the page's
// wasm (see web/Cargo.toml).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    yew::Renderer::<isolint_web::App>::new().render();
}
