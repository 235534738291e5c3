/*
 * The playground's service worker: once a page has loaded, it works offline. Hashed build assets
 * (/assets/…: scripts, wasm, grammars, the model) are immutable, so they are served cache-first;
 * everything else (the page itself) goes to the network first and falls back to the cache.
 * Only same-origin GET requests are touched. Registered in production builds only.
 */
const CACHE = 'ctxprune-playground-v1';

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith('ctxprune-playground-') && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

/**
 * The network's response, handed on at once (its body streams: progress bars move); a copy is
 * stored while it streams. A failed store costs the cache, never the response.
 */
async function fetchAndStore(event, cache, request) {
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') event.waitUntil(cache.put(request, response.clone()).catch(() => undefined));
  return response;
}

/**
 * The assets a page's first load fetched before this worker controlled it (the page's chunks, the
 * pruning worker's script, its tree-sitter runtime and grammar went straight to the network, and a
 * dedicated worker started then is never controlled): the page lists them once its first result is
 * on screen (pruner.ts), and they are stored now, so that the next load finds them here rather than
 * on the network; the page itself too (`page`), so that the next load works offline. Only this
 * scope's URLs; an asset already stored is not fetched again.
 */
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'cache-assets' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const scope = self.registration.scope;
      const assets = new URL('assets/', scope).href;
      if (typeof data.page === 'string' && data.page.startsWith(scope) && !(await cache.match(data.page))) {
        await fetchAndStore(event, cache, data.page).catch(() => undefined);
      }
      for (const u of new Set(data.urls)) {
        if (typeof u !== 'string' || !u.startsWith(assets)) continue;
        if (await cache.match(u, { ignoreVary: true })) continue;
        // A failure here is the next load's to store, on its way through.
        await fetchAndStore(event, cache, u).catch(() => undefined);
      }
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const scope = new URL(self.registration.scope);
  const immutable = url.pathname.startsWith(scope.pathname + 'assets/');
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // ignoreVary: a module script's request carries Origin and the server answers `Vary: Origin`;
      // an immutable same-origin asset is the same whichever request stored it.
      if (immutable) return (await cache.match(request, { ignoreVary: true })) ?? fetchAndStore(event, cache, request);
      try {
        return await fetchAndStore(event, cache, request);
      } catch (e) {
        const hit = (await cache.match(request)) ?? (await cache.match(request, { ignoreSearch: true }));
        if (hit) return hit;
        throw e;
      }
    })(),
  );
});
