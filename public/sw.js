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
      if (immutable) return (await cache.match(request)) ?? fetchAndStore(event, cache, request);
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
