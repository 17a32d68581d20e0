/* Long dotted names (the API pages' titles, and their entries in the section sidebar and
   the breadcrumbs) may break after a "." instead of inside a word: a <wbr> after each, so
   "milab_widgets.mil.bag_distances" wraps as "milab_widgets.mil." / "bag_distances" rather
   than "bag_dist" / "ances". */
document.addEventListener("DOMContentLoaded", () => {
  const names = document.querySelectorAll(
    ".bd-sidebar-primary nav a, .bd-article h1, .bd-breadcrumbs li");
  for (const element of names) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const texts = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeValue.includes(".")) texts.push(node);
    }
    for (const text of texts) {
      const pieces = text.nodeValue.split(/(?<=\.)/);
      const fragment = document.createDocumentFragment();
      pieces.forEach((piece, index) => {
        fragment.append(piece);
        if (index < pieces.length - 1) fragment.append(document.createElement("wbr"));
      });
      text.replaceWith(fragment);
    }
  }
});
