// The app's API on the preview's branch, as the platform's functions runtime runs it: the default
// export's `fetch` answers every request. It needs no package, so the folder is deployed as it is.
// Replace it with the app's own; this one answers the path it was asked for and which of the
// backend's settings it was deployed with (whether each is set, never its value).
const SETTINGS = ["DATABASE_URL", "AUTH_JWKS_URL", "DATA_API_URL", "BUCKET"];

export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    const configured = Object.fromEntries(SETTINGS.map((name) => [name, Boolean(process.env[name])]));
    return Response.json({ path: pathname, configured });
  },
};
