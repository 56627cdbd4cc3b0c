fn main() {
    yew::Renderer::<isolint_web::App>::new().render();
}
