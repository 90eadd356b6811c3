import Hummingbird

/// The console's page, script and style sheet, compiled into the binary: `GET /console` (a
/// trailing slash too), `/console/console.js`, `/console/console.css`. The page holds no data; the
/// script asks the console API for everything once signed in.
struct ConsoleAssetRoutes {
    func register(on router: some RouterMethods<BasicRequestContext>) {
        let page = Self.asset(PackageResources.index_html, "text/html; charset=utf-8")
        router.get("/console") { _, _ in page }
        router.get("/console/console.js") { _, _ in Self.asset(PackageResources.console_js, "text/javascript; charset=utf-8") }
        router.get("/console/console.css") { _, _ in Self.asset(PackageResources.console_css, "text/css; charset=utf-8") }
    }

    private static func asset(_ bytes: [UInt8], _ type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
