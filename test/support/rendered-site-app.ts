/**
 * The scripts and shells of the client-rendered test sites (`rendered-site.ts`):
 * what a browser runs to build each page. Kept as plain ES2017 text (no
 * modules, no build), served as `/app.js`.
 *
 * Each shell's HTML differs by its `data-page` attribute: Tabcrawl does not
 * read the links of a page whose body it has already stored (`duplicateOf`),
 * and the tests want every shell to be a page of its own. (Real single-page
 * apps often serve one identical shell for every path.)
 */

/**
 * The HTML of a shell page: an empty mount point named `pageId` (its `data-page`), the app's script, a
 * `<noscript>` notice, and `extraBody` (static markup).
 */
export function shellHtml(pageId: string, extraBody = ''): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading</title>' +
    '<script src="/app.js" defer></script></head>' +
    `<body><div id="app" data-page="${pageId}"></div>` +
    '<noscript>This shop needs JavaScript: turn it on to see the products.</noscript>' +
    `${extraBody}</body></html>`
  );
}

/**
 * The shop's `/app.js`. It asks for a URL robots.txt disallows on each host (a `fetch` of
 * `/private/track` on the shop, an image `<api>/secret/pixel` on the API host), adds `/style.css`,
 * reads `/api/catalog.json` (the page's view: title, description, h1, text, links, image), on a
 * product page also `<api>/api/product-N.json` (its name, description and text), writes them into
 * the DOM, and on `/live` polls `/api/poll` every 200 ms forever.
 * @param apiOrigin the second host (`http://127.0.0.1:PORT`).
 */
export function shopAppJs(apiOrigin: string): string {
  return `(function () {
  'use strict';
  var API = ${JSON.stringify(apiOrigin)};
  var path = location.pathname;
  var app = document.getElementById('app');
  function add(parent, tag, text) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  }
  function setDescription(content) {
    var meta = document.querySelector('meta[name="description"]');
    if (meta === null) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = content;
  }
  var style = document.createElement('link');
  style.rel = 'stylesheet';
  style.href = '/style.css';
  document.head.appendChild(style);
  fetch('/private/track').catch(function () {});
  var pixel = new Image(1, 1);
  pixel.alt = '';
  pixel.src = API + '/secret/pixel';
  document.body.appendChild(pixel);
  fetch('/api/catalog.json')
    .then(function (response) { return response.json(); })
    .then(function (catalog) {
      var view = catalog.pages[path];
      if (view === undefined) { document.title = 'Not found'; return null; }
      var product = view.product === null ? Promise.resolve(null) :
        fetch(API + '/api/product-' + view.product + '.json').then(function (r) { return r.json(); });
      return product.then(function (data) {
        var title = data === null ? view.title : data.name + ' · ' + catalog.shop;
        document.title = title;
        setDescription(data === null ? view.description : data.description);
        add(app, 'h1', data === null ? view.h1 : data.name);
        add(app, 'p', data === null ? view.text : data.text).id = 'text';
        var image = add(app, 'img');
        image.src = API + view.image;
        image.alt = view.h1;
        image.width = 40;
        image.height = 40;
        var list = add(add(app, 'nav'), 'ul');
        view.links.forEach(function (link) {
          var a = add(add(list, 'li'), 'a', link.text);
          a.href = link.href;
        });
        if (path === '/live') {
          var ticks = add(app, 'p', 'no price yet');
          ticks.id = 'ticks';
          setInterval(function () {
            fetch('/api/poll').then(function (r) { return r.json(); })
              .then(function (body) { ticks.textContent = 'price update ' + body.tick; })
              .catch(function () {});
          }, 200);
        }
        return null;
      });
    })
    .catch(function (error) { add(app, 'p', 'The shop could not load: ' + error); });
})();
`;
}

/**
 * The bench site's `/app.js`: asks for `/track?page=<n>` (robots.txt disallows `/track`), reads
 * `/data/<n>.json` and writes its title, h1, text and links into the DOM.
 */
export const BENCH_APP_JS = `(function () {
  'use strict';
  var app = document.getElementById('app');
  var n = app.getAttribute('data-page');
  fetch('/track?page=' + n).catch(function () {});
  fetch('/data/' + n + '.json')
    .then(function (response) { return response.json(); })
    .then(function (data) {
      document.title = data.title;
      var h1 = document.createElement('h1');
      h1.textContent = data.title;
      app.appendChild(h1);
      var list = document.createElement('ul');
      data.links.forEach(function (href) {
        var item = document.createElement('li');
        var a = document.createElement('a');
        a.href = href;
        a.textContent = href;
        item.appendChild(a);
        list.appendChild(item);
      });
      app.appendChild(list);
      var text = document.createElement('p');
      text.textContent = data.text;
      app.appendChild(text);
    })
    .catch(function () {});
})();
`;
