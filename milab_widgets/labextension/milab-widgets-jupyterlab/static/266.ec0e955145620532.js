"use strict";(self.rspackChunkmilab_widgets_jupyterlab=self.rspackChunkmilab_widgets_jupyterlab||[]).push([[266],{646(e,r,t){var a=t(601),o=t.n(a),n=t(314),i=(t.n(n))()(o());i.push([e.id,`/* The milab reproduction panel. */
.milab-reproduce {
  padding: 12px 16px;
  overflow: auto;
  font-size: var(--jp-ui-font-size1);
  color: var(--jp-ui-font-color1);
}

.milab-reproduce .milab-papers label {
  margin-right: 12px;
  white-space: nowrap;
}

.milab-reproduce .milab-controls {
  display: flex;
  gap: 8px;
  align-items: center;
  margin: 8px 0;
}

.milab-reproduce table.milab-progress {
  border-collapse: collapse;
  margin: 8px 0;
}

.milab-reproduce table.milab-progress th,
.milab-reproduce table.milab-progress td {
  border: 1px solid var(--jp-border-color2);
  padding: 4px 8px;
  text-align: left;
  vertical-align: top;
}

.milab-reproduce tr[data-status='running'] td:nth-child(2) {
  color: var(--jp-brand-color1);
  font-weight: bold;
}

.milab-reproduce tr[data-status='failed'] td:nth-child(2),
.milab-reproduce tr[data-status='interrupted'] td:nth-child(2) {
  color: var(--jp-error-color1);
}

.milab-reproduce pre.milab-log {
  max-height: 240px;
  overflow: auto;
  background: var(--jp-layout-color2);
  padding: 6px;
  font-size: var(--jp-code-font-size);
}

.milab-reproduce button:disabled,
.milab-reproduce select:disabled {
  opacity: 0.45;
  cursor: not-allowed;
}
`,""]),t.d(r,{},{A:i})},314(e){e.exports=function(e){var r=[];return r.toString=function(){return this.map(function(r){var t="",a=void 0!==r[5];return r[4]&&(t+="@supports (".concat(r[4],") {")),r[2]&&(t+="@media ".concat(r[2]," {")),a&&(t+="@layer".concat(r[5].length>0?" ".concat(r[5]):""," {")),t+=e(r),a&&(t+="}"),r[2]&&(t+="}"),r[4]&&(t+="}"),t}).join("")},r.i=function(e,t,a,o,n){"string"==typeof e&&(e=[[null,e,void 0]]);var i={};if(a)for(var c=0;c<this.length;c++){var l=this[c][0];null!=l&&(i[l]=!0)}for(var s=0;s<e.length;s++){var p=[].concat(e[s]);a&&i[p[0]]||(void 0!==n&&(void 0===p[5]||(p[1]="@layer".concat(p[5].length>0?" ".concat(p[5]):""," {").concat(p[1],"}")),p[5]=n),t&&(p[2]&&(p[1]="@media ".concat(p[2]," {").concat(p[1],"}")),p[2]=t),o&&(p[4]?(p[1]="@supports (".concat(p[4],") {").concat(p[1],"}"),p[4]=o):p[4]="".concat(o)),r.push(p))}},r}},601(e){e.exports=function(e){return e[1]}},665(e,r,t){t.r(r);var a=t(72),o=t.n(a),n=t(825),i=t.n(n),c=t(659),l=t.n(c),s=t(56),p=t.n(s),u=t(540),d=t.n(u),f=t(113),m=t.n(f),v=t(646),b={};b.styleTagTransform=m(),b.setAttributes=p(),b.insert=l().bind(null,"head"),b.domAPI=i(),b.insertStyleElement=d(),o()(v.A,b);let h=v.A&&v.A.locals?v.A.locals:void 0;t.d(r,{},{default:h})},72(e){var r=[];function t(e){for(var t=-1,a=0;a<r.length;a++)if(r[a].identifier===e){t=a;break}return t}function a(e,a){for(var o={},n=[],i=0;i<e.length;i++){var c=e[i],l=a.base?c[0]+a.base:c[0],s=o[l]||0,p="".concat(l," ").concat(s);o[l]=s+1;var u=t(p),d={css:c[1],media:c[2],sourceMap:c[3],supports:c[4],layer:c[5]};if(-1!==u)r[u].references++,r[u].updater(d);else{var f=function(e,r){var t=r.domAPI(r);return t.update(e),function(r){r?(r.css!==e.css||r.media!==e.media||r.sourceMap!==e.sourceMap||r.supports!==e.supports||r.layer!==e.layer)&&t.update(e=r):t.remove()}}(d,a);a.byIndex=i,r.splice(i,0,{identifier:p,updater:f,references:1})}n.push(p)}return n}e.exports=function(e,o){var n=a(e=e||[],o=o||{});return function(e){e=e||[];for(var i=0;i<n.length;i++){var c=t(n[i]);r[c].references--}for(var l=a(e,o),s=0;s<n.length;s++){var p=t(n[s]);0===r[p].references&&(r[p].updater(),r.splice(p,1))}n=l}}},659(e){var r={};e.exports=function(e,t){var a=function(e){if(void 0===r[e]){var t=document.querySelector(e);if(window.HTMLIFrameElement&&t instanceof window.HTMLIFrameElement)try{t=t.contentDocument.head}catch(e){t=null}r[e]=t}return r[e]}(e);if(!a)throw Error("Couldn't find a style target. This probably means that the value for the 'insert' parameter is invalid.");a.appendChild(t)}},540(e){e.exports=function(e){var r=document.createElement("style");return e.setAttributes(r,e.attributes),e.insert(r,e.options),r}},56(e,r,t){e.exports=function(e){var r=t.nc;r&&e.setAttribute("nonce",r)}},825(e){e.exports=function(e){if("u"<typeof document)return{update:function(){},remove:function(){}};var r=e.insertStyleElement(e);return{update:function(t){var a,o,n;a="",t.supports&&(a+="@supports (".concat(t.supports,") {")),t.media&&(a+="@media ".concat(t.media," {")),(o=void 0!==t.layer)&&(a+="@layer".concat(t.layer.length>0?" ".concat(t.layer):""," {")),a+=t.css,o&&(a+="}"),t.media&&(a+="}"),t.supports&&(a+="}"),(n=t.sourceMap)&&"u">typeof btoa&&(a+="\n/*# sourceMappingURL=data:application/json;base64,".concat(btoa(unescape(encodeURIComponent(JSON.stringify(n))))," */")),e.styleTagTransform(a,r,e.options)},remove:function(){var e;null===(e=r).parentNode||e.parentNode.removeChild(e)}}}},113(e){e.exports=function(e,r){if(r.styleSheet)r.styleSheet.cssText=e;else{for(;r.firstChild;)r.removeChild(r.firstChild);r.appendChild(document.createTextNode(e))}}}}]);