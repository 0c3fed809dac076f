// Built from workers/dashboard/src by workers/dashboard/build.mjs — do not edit.
var L,gt,Nn,Y,Oe,$e,$t,_e,yt,Fe,Me,Rn,ie=Symbol.for("pv"),ye={},be=[],Ln=/^m(i|n|o|s|text|space)$/,qe=Array.isArray,ze=be.slice,Q=Object.assign;function K(t){t&&t.parentNode&&t.remove()}function bt(t,e,n){var r,a,o,i={},s=arguments.length;for(o in e)o=="key"?r=e[o]:o=="ref"&&typeof t!="function"?a=e[o]:i[o]=e[o];return s>2&&(i.children=s>3?ze.call(arguments,2):n),se(t,i,r,a,null)}function se(t,e,n,r,a){var o={type:t,props:e,key:n,ref:r,__k:null,__:null,__b:0,__e:null,__c:null,constructor:ie,__v:a||++gt,__i:-1,__u:0};return!a&&L.vnode&&L.vnode(o),o}function ve(t){return t.children}function he(t,e){this.props=t,this.context=e,this.__g=0}function G(t,e){if(e==null)return t.__&&G(t.__,t.__i+1);for(var n;e<t.__k.length;e++)if((n=t.__k[e])&&n.__e)return n.__e;return typeof t.type!="function"||t.props.__P?null:G(t)}function In(t){var e,n=t.__v,r=n.__e,a=[],o=[],i=t.__P;i&&((e=Q({constructor:ie},n)).__v=n.__v+1,L.vnode&&L.vnode(e),Ue(i,e,n,t.__n,i.namespaceURI,32&n.__u?[r]:null,a,r||G(n),32&n.__u,o),e.__v=n.__v,e.__.__k[e.__i]=e,St(a,e,o),n.__=n.__e=null,e.__e!=r&&vt(e))}function vt(t){if((t=t.__)&&t.__c&&!t.props.__P)return t.__e=null,t.__k.some(function(e){return e&&(t.__e=e.__e)}),vt(t)}function _t(t){(8&t.__g||(t.__g|=8,Y.push(t),$e++))&&Oe==L.debounceRendering||((Oe=L.debounceRendering)||queueMicrotask)(kt)}function kt(){try{for(var t,e=1;Y.length;)Y.length>e&&Y.sort($t),t=Y.shift(),e=Y.length,8&t.__g&&In(t)}finally{($e=Y.length)&&(Oe||queueMicrotask)(kt)}}function xt(t,e,n,r,a,o,i,s,u,p,l){var h,f,c,m,g,b,w=r.__k||be,$=e.length;for(u=Dn(n,e,w,u,$),h=0;h<$;h++)(c=n.__k[h])!=null&&(f=~c.__i&&w[c.__i]||ye,c.__i=h,b=Ue(t,c,f,a,o,i,s,u,p,l),m=c.__e,(f.ref!=c.ref||8&f.__u)&&(f.ref&&He(f.ref,null,c,f),c.ref&&l.push(c.ref,c.__c||m,c)),g=g||m,4&c.__u?(u=Tt(c,u,t,!f.__v),f.__e&&(f.__e=null)):typeof c.type=="function"&&b!==void 0?u=b:m&&(u=m.nextSibling),c.__u&=-21);return n.__e=g,u}function Dn(t,e,n,r,a){var o,i,s,u,p,l,h,f,c,m=n.length,g=m,b=0,w=0,$=t.__k=Array(a);for(o=0;o<a;o++)(i=e[o])!=null&&typeof i!="boolean"&&typeof i!="function"?(typeof i!="object"||i.constructor===String?i=$[o]=se(null,i):qe(i)?i=$[o]=se(ve,{children:i}):i.constructor===ie&&i.__b?i=$[o]=se(i.type,i.props,i.key,i.ref,i.__v):$[o]=i,u=o+b,i.__=t,i.__b=t.__b+1,s=null,~(p=i.__i=On(i,n,u,g))&&(g--,(s=n[p])&&(s.__u|=2)),s&&s.__v?(i.__u|=16,p==u-1?b--:p==u+1?b++:p!=u&&(p>u?b--:b++,w=1)):(~p||(a>m?b--:a<m&&b++),typeof i.type!="function"&&(i.__u|=4))):$[o]=null;if(w){for(l=[],h=[],o=0;o<a;o++)if((i=$[o])&&16&i.__u){for(b=0,f=l.length;b<f;)l[c=b+f>>1]<i.__i?b=c+1:f=c;l[b]=i.__i,h[o]=b+1}for(b=l.length;o--;)h[o]&&(h[o]==b?b--:$[o].__u|=4)}if(g)for(o=0;o<m;o++)!(s=n[o])||2&s.__u||(s.__e==r&&(r=G(s)),Be(s,s));return r}function Tt(t,e,n,r){var a,o,i,s;if(typeof t.type=="function"){if(t.props.__P)return e;if(a=t.__k)for(o=0;o<a.length;o++)a[o]&&(a[o].__=t,e=Tt(a[o],e,n,!1));return e}for(e&&!e.parentNode&&(e=G(t))&&!e.parentNode&&(e=null),i=t.__e,s=e;s&&s.nodeType==8;)s=s.nextSibling;for(i!=s&&(!r&&n.moveBefore&&i.parentNode?n.moveBefore(i,e):n.insertBefore(i,e||null)),e=i;(e=e&&e.nextSibling)&&e.nodeType==8&&!e.data.startsWith("$s"););return e}function On(t,e,n,r){var a,o=t.key,i=t.type,s=e[n],u=s&&!(2&s.__u);if(s===null&&o==null||u&&o==s.key&&i==s.type)return n;if(r>(u?1:0)){for(a=n-1;a>=0;a--)if((s=e[a])&&!(2&s.__u)&&o==s.key&&i==s.type)return a;for(a=n+1;a<e.length;a++)if((s=e[a])&&!(2&s.__u)&&o==s.key&&i==s.type)return a}return-1}function ht(t,e,n){n==null&&(n=""),e[0]=="-"?t.setProperty(e,n):t[e]=n}function me(t,e,n,r,a){var o,i;if(e=="style")if(typeof n=="string")t.style.cssText=n;else{if(typeof r=="string"&&(t.style.cssText=r=""),r)for(e in r)n&&e in n||ht(t.style,e);if(n)for(e in n)r&&n[e]==r[e]||ht(t.style,e,n[e])}else if(e[0]=="o"&&e[1]=="n")typeof n!="function"&&(n=null),typeof r!="function"&&(r=null),(t.__e||(t.__e={}))[e]=n,n&&r||(i=Me[e]||(Me[e]=Mn(e)),(t.__a||(t.__a={}))[e]=Fe,o=e!=(e=e.replace(yt,"$1")),(e=e.slice(2))[0]<"a"&&(e=e.toLowerCase()),n?t.addEventListener(e,i,o):t.removeEventListener(e,i,o));else{if(a=="http://www.w3.org/2000/svg")e=e.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(e!="width"&&e!="height"&&e!="href"&&e!="list"&&e!="form"&&e!="tabIndex"&&e!="download"&&e!="rowSpan"&&e!="colSpan"&&e!="role"&&e!="popover"&&e in t)try{return void(t[e]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&e[4]!="-"?t.removeAttribute(e):t.setAttribute(e,e=="popover"&&n==1?"":n)}}function Mn(t){return function(e){var n=this.__e;if(n){if(n=n[t],e[_e]==null)e[_e]=Fe++;else if(e[_e]<this.__a[t])return;return n(L.event?L.event(e):e)}}}function Ue(t,e,n,r,a,o,i,s,u,p){var l,h,f,c,m,g,b,w,$,v,k,S,T,x,N,E,R,z,q=e.type;if(e.constructor!==ie)return null;128&n.__u&&(u=32&n.__u,l=n.__c.__z)&&(e.__u|=u,h=o=[],l.nodeType==8?s=ge(l,o):o.push(l),s=o[0]||s),(l=L.__b)&&l(e);e:if(typeof q=="function"){f=i.length;try{if(w=e.props,$=(l=q.prototype)&&l.render,v=(l=q.contextType)&&r[l.__c],k=l?v?v.props.value:l.__:r,(c=n.__c)?(e.__c=c,2&c.__g&&(c.__g|=1)):($?e.__c=c=new q(w,k):(e.__c=c=new he(w,k),c.constructor=q,c.render=qn),v&&v.sub(c),c.state||(c.state={}),c.__n=r,c.__g|=8,c.__h=[],c.__k=[]),$&&(c.__s||(c.__s=c.state),q.getDerivedStateFromProps&&(c.__s==c.state&&(c.__s=Q({},c.__s)),Q(c.__s,q.getDerivedStateFromProps(w,c.__s)))),m=c.props,g=c.state,c.__v=e,n.__c){if(w!==m&&$&&!q.getDerivedStateFromProps&&c.componentWillReceiveProps&&c.componentWillReceiveProps(w,k),e.__v==n.__v&&!(8&c.__g)||!(4&c.__g)&&c.shouldComponentUpdate&&c.shouldComponentUpdate(w,c.__s,k)===!1){e.__v!=n.__v&&(c.props=w,c.state=c.__s,c.__g&=-9),e.__e=n.__e,e.__k=n.__k,e.__k.some(function(F){F&&(F.__=e)}),be.push.apply(c.__h,c.__k),c.__k=[],c.__h.length&&i.push(c),s=G(n);break e}c.componentWillUpdate&&c.componentWillUpdate(w,c.__s,k),$&&c.componentDidUpdate&&c.__h.push(function(){c.componentDidUpdate(m,g,b)})}else $&&!q.getDerivedStateFromProps&&c.componentWillMount&&c.componentWillMount(),$&&c.componentDidMount&&c.__h.push(c.componentDidMount);c.context=k,c.props=w,c.__P=t,c.__g&=-5,S=L.__r,T=$?25:0;do c.__g&=-9,S&&S(e),l=c.render(c.props,c.state=c.__s,c.context);while(8&c.__g&&++T<25);$&&(be.push.apply(c.__h,c.__k),c.__k=[]),c.state=c.__s,c.getChildContext&&(r=Q({},r,c.getChildContext())),$&&n.__c&&c.getSnapshotBeforeUpdate&&(b=c.getSnapshotBeforeUpdate(m,g)),x=l&&l.type===ve&&l.key==null?l.props.children:l,w.__P&&(l=s,a=(t=w.__P).namespaceURI,u=o=null,n.props&&n.props.__P!=t&&(n.__k.some(function(F){F&&Be(F,F)}),n.__k=null),s=n.__k?G(n,0):null),s=xt(t,qe(x)?x:[x],e,n,r,a,o,i,s,u,p),w.__P&&(e.__e=null,s=l),e.__u&=-161,h&&h.some(K),c.__h.length&&i.push(c),1&c.__g&&(c.__g&=-4)}catch(F){if(i.length=f,e.__v=null,u||o)if(F&&F.then){if(e.__u|=128|u,o){for(~(R=o.indexOf(s||void 0))||(R=o.length);(z=o[R-1])&&z.nodeType==8;)R--;for(;R<o.length;R++)if(z=o[R])if(o[R]=null,N){if(z==E)break}else{if(z.nodeType!=8)break;z.data.startsWith("$s")&&(E=ge(N=z))}}if(!N){for(;s&&s.nodeType==8&&s.nextSibling;)s=s.nextSibling;N=s}(l=ge(N=e.__c.__z||(e.__c.__z=N)))?(e.__e=N,s=l):e.__e=s,s=s&&s.nextSibling}else o&&o.some(K);else e.__e=n.__e;e.__k||(e.__k=n.__k||[]),F&&F.then||wt(e),L.__e(F,e,n)}}else s=e.__e=Fn(n.__e,e,n,r,a,o,i,u,p,t);return(l=L.diffed)&&l(e),s}function ge(t,e){if(t&&t.nodeType==8&&t.data.startsWith("$s"))for(var n=1;t=t.nextSibling;){if(t.nodeType==8){if(t.data.startsWith("$s"))n++;else if(t.data.startsWith("/$s")&&!--n)return t}e&&e.push(t)}}function wt(t){t&&(t.__c&&(t.__c.__g|=4),t.__k&&t.__k.some(wt))}function St(t,e,n){for(var r=0;r<n.length;)He(n[r++],n[r++],n[r++]);L.__c&&L.__c(e,t),t.some(function(a){try{t=a.__h,a.__h=[],t.some(function(o){o.call(a)})}catch(o){L.__e(o,a.__v)}})}function Fn(t,e,n,r,a,o,i,s,u,p){var l,h,f,c,m,g,b,w,$=n.props||ye,v=e.props,k=e.type;if(k=="svg"?a="http://www.w3.org/2000/svg":k=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),o){for(l=0;l<o.length;l++)if((m=o[l])&&(k?m.localName==k:m.nodeType==3)){t=m,o[l]=null;break}}if(!t){if(w=p.ownerDocument||document,!k)return w.createTextNode(v);t=w.createElementNS(a,k,v.is?v:p),s&&(L.__m&&L.__m(e,o),s=!1),o=null}if(k){if(p=k=="template"&&t.content||t,o=k=="textarea"&&v.defaultValue!=null?null:o&&ze.call(p.childNodes),!s&&o)for($={},l=0;l<t.attributes.length;l++)$[(m=t.attributes[l]).name]=m.value;for(l in $)m=$[l],l=="dangerouslySetInnerHTML"?f=m:l=="children"||l in v||l=="value"&&"defaultValue"in v||l=="checked"&&"defaultChecked"in v||me(t,l,null,m,a);for(l in v)m=v[l],l=="children"?c=m:l=="dangerouslySetInnerHTML"?h=m:l=="value"?g=m:l=="checked"?b=m:s&&typeof m!="function"||$[l]===m||me(t,l,m,$[l],a);h?(s||f&&(h.__html==f.__html||h.__html==t.innerHTML)||(t.innerHTML=h.__html),e.__k=[]):(f&&(t.textContent=""),(k=="foreignObject"||a=="http://www.w3.org/1998/Math/MathML"&&Ln.test(k))&&(a="http://www.w3.org/1999/xhtml"),xt(p,qe(c)?c:[c],e,n,r,a,o,i,o?o[0]:n.__k&&G(n,0),s,u),o&&o.some(K)),s&&k!="textarea"||(l="value",k=="progress"&&g==null?t.removeAttribute(l):g==null||g===t[l]&&(k!="progress"||g)||me(t,l,g,$[l],a),l="checked",b!=null&&b!=t[l]&&me(t,l,b,$[l],a))}else $===v||s&&t.data==v||(t.data=v);return t}function He(t,e,n,r){try{typeof t=="function"?e?e.__x=t(e)||1:r&&(r=r.__c||r.__e)&&(e=r.__x)&&(r.__x=null,typeof e=="function"?e():t(null)):t.current=e}catch(a){L.__e(a,n)}}function Be(t,e,n){var r,a,o,i;if(L.unmount&&L.unmount(t),!(r=t.ref)||r.current&&r.current!=t.__e||He(r,null,e,t),r=t.__c){if(r.componentWillUnmount)try{r.componentWillUnmount()}catch(s){L.__e(s,e)}r.__P=r.__n=null}if(r=t.__k)for(i=0;i<r.length;i++)r[i]&&Be(r[i],e,typeof t.type!="function"||n&&!t.props.__P);!n&&(r=t.__c)&&(r=r.__z)&&(a=ge(r,o=[]))&&(r==t.__e&&o.some(K),K(a),K(r)),n||K(t.__e),t.__e=t.__c=t.__=null}function qn(t,e,n){return this.constructor(t,n)}function Et(t,e){var n,r,a,o;L.__&&L.__(t,e),e.nodeType==9&&(e=e.documentElement),r=(n=t&&32&t.__u)?null:e.__k,e.__k=se(ve,{children:[t]}),a=[],o=[],Ue(e,e.__k,r||ye,ye,e.namespaceURI,r?null:e.firstChild?ze.call(e.childNodes):null,a,r?r.__e:e.firstChild,n,o),St(a,e.__k,o),e.__k.props.children=null}L={__e:function(t,e,n,r){for(var a,o,i;e=e.__;)if((a=e.__c)&&!(1&a.__g)){a.__g|=4;try{if((i=(o=a.constructor)&&o.getDerivedStateFromError)&&a.setState(o.getDerivedStateFromError(t)),a.componentDidCatch&&(a.componentDidCatch(t,r||{}),i=1),i&&8&a.__g)return void(a.__g|=2)}catch(s){t=s}}throw $e=0,t}},gt=0,Nn=function(t){return t!=null&&t.constructor===ie},he.prototype.setState=function(t,e){var n=this.__s;n&&n!=this.state||(n=this.__s=Q({},this.state)),typeof t=="function"&&(t=t(Q({},n),this.props)),t&&(Q(n,t),this.__v&&(e&&this.__k.push(e),_t(this)))},he.prototype.forceUpdate=function(t){this.__v&&(this.__g|=4,t&&this.__h.push(t),_t(this))},he.prototype.render=ve,Y=[],$e=0,$t=function(t,e){return t.__v.__b-e.__v.__b},_e=Symbol(),yt=/(PointerCapture)$|Capture$/i,Fe=0,Me={},Rn=0;var ce,M,Ve,Ct,Ze=Object.is,ue=0,Mt=[],je=[],I=L,At=I.__b,Pt=I.__r,Nt=I.diffed,Rt=I.__c,Lt=I.unmount,It=I.__;function Ye(t,e){I.__h&&I.__h(M,t,ue||e),ue=0;var n=M.__H||(M.__H={__:[],__h:[]});return t>=n.__.length&&n.__.push({}),n.__[t]}function y(t){return ue=1,zn(zt,t)}function zn(t,e,n){var r=Ye(ce++,2);if(r.t=t,!r.__c&&(r.__=[n?n(e):zt(void 0,e),function(o){var i=(r.__N||r.__)[0],s=r.t(i,o);Ze(i,s)||(r.__N=[s,r.__[1]],r.__c.setState({}))}],r.__c=M,!M.__f)){M.__f=!0;var a=M.shouldComponentUpdate;M.shouldComponentUpdate=function(o,i,s){var u=this.__H;if(!u)return!0;var p=!1,l=this.props!=o;if(u.__.some(function(f){f.__N&&(p=!0,Ze(f.__[0],f.__N[0])||(l=!0))}),a){var h=a.call(this,o,i,s);return p?h||l:h}return!p||l}}return r.__}function D(t,e){var n=Ye(ce++,3);!I.__s&&qt(n.__H,e)&&(n.__P=!0,n.__=t,n.u=e,M.__H.__h.push(n))}function H(t){return ue=5,Ft(function(){return{current:t}},[])}function Ft(t,e){var n=Ye(ce++,7);return qt(n.__H,e)&&(n.__=t(),n.__H=e),n.__}function ne(t,e){return ue=8,Ft(function(){return t},e)}function Un(){var t;do{for(;t=je.shift();)try{le(t)}catch(n){I.__e(n,{__:(t=t.__P)&&t.__v})}for(;t=Mt.shift();){var e=t.__H;if(t.__P&&e)try{e.__h.some(le),e.__h.some(We),e.__h=[]}catch(n){e.__h=[],I.__e(n,t.__v)}}}while(je.length)}I.__b=function(t){M=null,At&&At(t)},I.__=function(t,e){t&&e.__k&&e.__k.__m&&(t.__m=e.__k.__m),It&&It(t,e)},I.__r=function(t){Pt&&Pt(t),ce=0;var e=(M=t.__c).__H;e&&(Ve==M?M.__h=[]:(e.__h.some(le),e.__h.some(We),ce=0),e.__h=[],e.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),Ve=M},I.diffed=function(t){Nt&&Nt(t);var e=t.__c;e&&e.__H&&(e.__H.__h.length&&Ot(Mt.push(e)),e.__H.__.some(function(n){n.u&&(n.__H=n.u)})),Ve=M=null},I.__c=function(t,e){e.some(function(n){try{n.__h.some(le),n.__h=n.__h.filter(function(r){return!r.__||We(r)})}catch(r){n.__h=[function(){throw r}]}}),Rt&&Rt(t,e)},I.unmount=function(t){Lt&&Lt(t);var e,n,r=t.__c;r&&r.__H&&(r.__H.__.some(function(a){try{if(a.__P&&a.__c){if(n===void 0){for(n=t.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}a.__P=n,Ot(je.push(a))}else le(a)}catch(o){e=o}}),r.__H=void 0,e&&I.__e(e,r.__v))};var Dt=typeof requestAnimationFrame=="function";function Hn(t){var e,n=function(){clearTimeout(r),Dt&&cancelAnimationFrame(e),setTimeout(t)},r=setTimeout(n,35);Dt&&(e=requestAnimationFrame(n))}function Ot(t){t!=1&&Ct==I.requestAnimationFrame||((Ct=I.requestAnimationFrame)||Hn)(Un)}function le(t){var e=M,n=t.__c;typeof n=="function"&&(t.__c=void 0,n()),M=e}function We(t){var e=M;t.__c=t.__(),M=e}function qt(t,e){return!t||t.length!=e.length||e.some(function(n,r){return!Ze(n,t[r])})}function zt(t,e){return typeof e=="function"?e(t):e}var Ge="edgedns.token",Ke="/client/v4",de=sessionStorage.getItem(Ge)??"",ke={get token(){return de},set(t){de=t,sessionStorage.setItem(Ge,t)},clear(){de="",sessionStorage.removeItem(Ge)}},Xe=class extends Error{constructor(e,n){let r=n[0]??{code:e,message:"request failed"};super(`${r.message} (code ${r.code})`),this.status=e,this.errors=n}get forbidden(){return this.status===403}};async function Ut(t){let e=await t.json().catch(()=>null);if(e&&e.success)return e;throw new Xe(t.status,e?.errors?.length?e.errors:[{code:t.status,message:t.statusText||"request failed"}])}async function P(t,e,n,r){let a={authorization:`Bearer ${r??de}`},o;n instanceof FormData?o=n:n!==void 0&&(a["content-type"]="application/json",o=JSON.stringify(n));let i=await fetch(`${Ke}${e}`,{method:t,headers:a,body:o});return Ut(i)}async function Ht(t){let e=await fetch(`${Ke}${t}`,{headers:{authorization:`Bearer ${de}`}});return e.ok||await Ut(e),e.text()}async function Bt(){try{let t=await fetch(`${Ke}/local_dev`,{cache:"no-store"});return t.ok?(await t.json()).result?.dev_token??null:null}catch{return null}}var Zt=function(t,e,n,r){var a;e[0]=0;for(var o=1;o<e.length;o++){var i=e[o++],s=e[o]?(e[0]|=i?1:2,n[e[o++]]):e[++o];i===3?r[0]=s:i===4?r[1]=Object.assign(r[1]||{},s):i===5?(r[1]=r[1]||{})[e[++o]]=s:i===6?r[1][e[++o]]+=s+"":i?(a=t.apply(s,Zt(t,s,n,["",null])),r.push(a),s[0]?e[0]|=2:(e[o-2]=0,e[o]=a)):r.push(s)}return r},Vt=new Map;function jt(t){var e=Vt.get(this);return e||(e=new Map,Vt.set(this,e)),(e=Zt(this,e.get(t)||(e.set(t,e=(function(n){for(var r,a,o=1,i="",s="",u=[0],p=function(f){o===1&&(f||(i=i.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,f,i):o===3&&(f||i)?(u.push(3,f,i),o=2):o===2&&i==="..."&&f?u.push(4,f,0):o===2&&i&&!f?u.push(5,0,!0,i):o>=5&&((i||!f&&o===5)&&(u.push(o,0,i,a),o=6),f&&(u.push(o,f,0,a),o=6)),i=""},l=0;l<n.length;l++){l&&(o===1&&p(),p(l));for(var h=0;h<n[l].length;h++)r=n[l][h],o===1?r==="<"?(p(),u=[u],o=3):i+=r:o===4?i==="--"&&r===">"?(o=1,i=""):i=r+i[0]:s?r===s?s="":i+=r:r==='"'||r==="'"?s=r:r===">"?(p(),o=1):o&&(r==="="?(o=5,a=i,i=""):r==="/"&&(o<5||n[l][h+1]===">")?(p(),o===3&&(u=u[0]),o=u,(u=u[0]).push(2,0,o),o=0):r===" "||r==="	"||r===`
`||r==="\r"?(p(),o=2):i+=r),o===3&&i==="!--"&&(o=4,u=u[0])}return p(),u})(t)),e),arguments,[])).length>1?e:e[0]}var d=jt.bind(bt);var xe=[{name:"A",code:1,api:!0,rdata:"a"},{name:"NS",code:2,api:!0,rdata:"name"},{name:"CNAME",code:5,api:!0,rdata:"name"},{name:"SOA",code:6,api:!1,rdata:"soa"},{name:"PTR",code:12,api:!0,rdata:"name"},{name:"HINFO",code:13,api:!1,rdata:"hinfo"},{name:"MX",code:15,api:!0,rdata:"mx"},{name:"TXT",code:16,api:!0,rdata:"txt"},{name:"RP",code:17,api:!1,rdata:"opaque"},{name:"AFSDB",code:18,api:!1,rdata:"opaque"},{name:"AAAA",code:28,api:!0,rdata:"aaaa"},{name:"LOC",code:29,api:!0,rdata:"loc"},{name:"SRV",code:33,api:!0,rdata:"srv"},{name:"NAPTR",code:35,api:!0,rdata:"naptr"},{name:"KX",code:36,api:!1,rdata:"opaque"},{name:"CERT",code:37,api:!0,rdata:"cert"},{name:"DNAME",code:39,api:!1,rdata:"name-uncompressed"},{name:"OPT",code:41,api:!1,rdata:"meta"},{name:"APL",code:42,api:!1,rdata:"opaque"},{name:"DS",code:43,api:!0,rdata:"ds"},{name:"SSHFP",code:44,api:!0,rdata:"sshfp"},{name:"IPSECKEY",code:45,api:!1,rdata:"opaque"},{name:"RRSIG",code:46,api:!1,rdata:"opaque"},{name:"NSEC",code:47,api:!1,rdata:"opaque"},{name:"DNSKEY",code:48,api:!0,rdata:"dnskey"},{name:"DHCID",code:49,api:!1,rdata:"opaque"},{name:"NSEC3",code:50,api:!1,rdata:"opaque"},{name:"NSEC3PARAM",code:51,api:!1,rdata:"opaque"},{name:"TLSA",code:52,api:!0,rdata:"tlsa"},{name:"SMIMEA",code:53,api:!0,rdata:"tlsa"},{name:"HIP",code:55,api:!1,rdata:"opaque"},{name:"CDS",code:59,api:!1,rdata:"ds"},{name:"CDNSKEY",code:60,api:!1,rdata:"dnskey"},{name:"OPENPGPKEY",code:61,api:!0,rdata:"openpgpkey"},{name:"CSYNC",code:62,api:!1,rdata:"opaque"},{name:"ZONEMD",code:63,api:!1,rdata:"opaque"},{name:"SVCB",code:64,api:!0,rdata:"svcb"},{name:"HTTPS",code:65,api:!0,rdata:"svcb"},{name:"SPF",code:99,api:!1,rdata:"txt"},{name:"NXNAME",code:128,api:!1,rdata:"meta"},{name:"TKEY",code:249,api:!1,rdata:"meta"},{name:"TSIG",code:250,api:!1,rdata:"meta"},{name:"IXFR",code:251,api:!1,rdata:"meta"},{name:"AXFR",code:252,api:!1,rdata:"meta"},{name:"MAILB",code:253,api:!1,rdata:"meta"},{name:"MAILA",code:254,api:!1,rdata:"meta"},{name:"ANY",code:255,api:!1,rdata:"meta"},{name:"URI",code:256,api:!0,rdata:"uri"},{name:"CAA",code:257,api:!0,rdata:"caa"}],No=Object.freeze(Object.fromEntries(xe.map(t=>[t.name,t.code]))),Wt=Object.freeze(xe.filter(t=>t.api).map(t=>t.name).sort());var Ro=new Map(xe.map(t=>[t.code,t])),Lo=new Map(xe.map(t=>[t.name,t]));function Qe(t){if(!t.endsWith("."))return!1;let e=0;for(let n=t.length-2;n>=0&&t[n]==="\\";n--)e++;return e%2===0}var we=Wt,Je=new Set(["A","AAAA","CNAME"]),O=(t,e,n="")=>({key:t,label:e,kind:"text",hint:n}),oe=(t,e,n="")=>({key:t,label:e,kind:"textarea",hint:n}),B=(t,e,n,r,a="")=>({key:t,label:e,kind:"number",min:n,max:r,hint:a}),Te=(t,e,n)=>({key:t,label:e,kind:"select",options:n}),V=(t,e,n)=>B(t,e,0,255,n),U=(t,e,n)=>B(t,e,0,65535,n),Bn=[B("data.lat_degrees","Latitude degrees",0,90),B("data.lat_minutes","Latitude minutes",0,59),B("data.lat_seconds","Latitude seconds",0,59.999),Te("data.lat_direction","Latitude direction",["N","S"]),B("data.long_degrees","Longitude degrees",0,180),B("data.long_minutes","Longitude minutes",0,59),B("data.long_seconds","Longitude seconds",0,59.999),Te("data.long_direction","Longitude direction",["E","W"]),B("data.altitude","Altitude (m)",-1e5,4284967295e-2),B("data.size","Size (m)",0,9e7),B("data.precision_horz","Horizontal precision (m)",0,9e7),B("data.precision_vert","Vertical precision (m)",0,9e7)],Yt=[V("data.usage","Usage","0\u20133 (3 = DANE-EE)"),V("data.selector","Selector","0 = full certificate, 1 = public key"),V("data.matching_type","Matching type","0 = exact, 1 = SHA-256, 2 = SHA-512"),oe("data.certificate","Certificate association data","hex")],Vn={A:[O("content","IPv4 address","e.g. 192.0.2.1")],AAAA:[O("content","IPv6 address","e.g. 2001:db8::1")],CNAME:[O("content","Target","a host name")],NS:[O("content","Name server")],PTR:[O("content","Domain name")],TXT:[oe("content","Text")],OPENPGPKEY:[oe("content","Public key","base64")],MX:[U("priority","Priority","lower is preferred"),O("content","Mail server")],URI:[U("priority","Priority"),U("data.weight","Weight"),O("data.target","Target URI")],SRV:[O("srv.service","Service","e.g. _sip"),Te("srv.protocol","Protocol",["_tcp","_udp","_tls"]),U("data.priority","Priority"),U("data.weight","Weight"),U("data.port","Port"),O("data.target","Target")],CAA:[V("data.flags","Flags","0, or 128 = critical"),Te("data.tag","Tag",["issue","issuewild","iodef","issuemail","issuevmc"]),O("data.value","Value","e.g. letsencrypt.org")],HTTPS:[U("data.priority","Priority","0 = alias mode"),O("data.target","Target",". = the owner name"),O("data.value","Parameters",'e.g. alpn="h2,h3" ipv4hint=192.0.2.1')],SVCB:[U("data.priority","Priority","0 = alias mode"),O("data.target","Target",". = the owner name"),O("data.value","Parameters",'e.g. alpn="h2" port=8443')],TLSA:Yt,SMIMEA:Yt,SSHFP:[V("data.algorithm","Algorithm","1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519"),V("data.type","Fingerprint type","1 SHA-1, 2 SHA-256"),O("data.fingerprint","Fingerprint","hex")],DS:[U("data.key_tag","Key tag"),V("data.algorithm","Algorithm"),V("data.digest_type","Digest type","2 = SHA-256"),oe("data.digest","Digest","hex")],DNSKEY:[U("data.flags","Flags","256 ZSK, 257 KSK"),V("data.protocol","Protocol","always 3"),V("data.algorithm","Algorithm"),oe("data.public_key","Public key","base64")],CERT:[U("data.type","Certificate type"),U("data.key_tag","Key tag"),V("data.algorithm","Algorithm"),oe("data.certificate","Certificate","base64")],NAPTR:[U("data.order","Order"),U("data.preference","Preference"),O("data.flags","Flags","e.g. U"),O("data.service","Service","e.g. E2U+sip"),O("data.regex","Regular expression"),O("data.replacement","Replacement",". when a regex is used")],LOC:Bn},Zn={"srv.protocol":"_tcp","data.tag":"issue","data.lat_direction":"N","data.long_direction":"E","data.flags":""};function J(t){return Vn[t]??[O("content","Content")]}function pe(t,e){return t===e?"@":t.endsWith(`.${e}`)?t.slice(0,-e.length-1):t}function Se(t){let e={type:t,name:"",ttl:"1",proxied:!1,comment:""};for(let n of J(t))e[n.key]=Zn[n.key]??(n.kind==="select"?n.options[0]:"");return t==="CAA"&&(e["data.flags"]="0"),e}function Gt(t,e){let n={...Se(t.type),name:pe(t.name,e),ttl:String(t.ttl),proxied:t.proxied,comment:t.comment??""};for(let r of J(t.type))if(r.key==="content")n.content=t.content;else if(r.key==="priority")n.priority=t.priority===void 0?"":String(t.priority);else if(r.key.startsWith("data.")){let a=t.data?.[r.key.slice(5)];n[r.key]=a==null?"":String(a)}if(t.type==="SRV"){let[r="",a="_tcp",...o]=n.name.split(".");n["srv.service"]=r,n["srv.protocol"]=a,n.name=o.length===0?"@":o.join(".")}return n}function jn(t,e){if(t.kind!=="number")return e;if(e==="")return;let n=Number(e);return Number.isFinite(n)?n:e}function Xt(t){let e=t.type,n={type:e,name:t.name.trim()||"@",ttl:Number(t.ttl)};Je.has(e)&&(n.proxied=!!t.proxied),t.comment?.trim()&&(n.comment=t.comment.trim());let r={},a=!1;for(let o of J(e)){let i=jn(o,String(t[o.key]??"").trim());o.key==="content"?n.content=i:o.key==="priority"?n.priority=i:o.key.startsWith("data.")&&(a=!0,i!==void 0&&i!==""&&(r[o.key.slice(5)]=i))}if(e==="SRV"){let o=n.name==="@"?"":`.${n.name}`;n.name=`${t["srv.service"].trim()}.${t["srv.protocol"]}${o}`}return a&&(n.data=r),n}function Z(t){return`${t.type} ${t.name} ${et(t)?`${t.priority} `:""}${t.content}`}function et(t){return t.priority!==void 0&&(t.type==="MX"||t.type==="URI"||t.type==="SRV")}var Wn=0,Yn=t=>`${t}-${++Wn}`;function X({field:t,value:e,error:n,onInput:r,disabled:a,idPrefix:o="f"}){let i=H(Yn(o)).current,s=`${i}-hint`,u=`${i}-err`,p=[t.hint?s:"",n?u:""].filter(Boolean).join(" ")||void 0,l={id:i,name:t.key,disabled:a,"aria-invalid":n?"true":void 0,"aria-describedby":p},h=c=>r(t.key,c.currentTarget.value),f;if(t.kind==="select")f=d`<select ...${l} value=${e} onChange=${h}>
      ${t.options.map(c=>d`<option value=${c}>${c}</option>`)}
    </select>`;else if(t.kind==="textarea")f=d`<textarea ...${l} rows="3" value=${e} onInput=${h}></textarea>`;else{let c=t.kind==="number";f=d`<input
      ...${l}
      type=${c?"number":"text"}
      inputmode=${c?"decimal":void 0}
      step=${c?"any":void 0}
      min=${t.min}
      max=${t.max}
      value=${e}
      onInput=${h}
      autocomplete="off"
      spellcheck="false"
    />`}return d`<div class=${`field${n?" has-error":""}`} data-field=${t.key}>
    <label for=${i}>${t.label}</label>
    ${f} ${t.hint?d`<small id=${s} class="hint">${t.hint}</small>`:null}
    ${n?d`<small id=${u} class="error" role="alert">${n}</small>`:null}
  </div>`}function ee({title:t,onClose:e,children:n,wide:r}){let a=H(null);return D(()=>{let o=document.activeElement,i=a.current;return i.showModal(),i.querySelector("[autofocus], input, select, textarea, button")?.focus(),()=>{i.open&&i.close(),o instanceof HTMLElement&&o.focus()}},[]),d`<dialog
    ref=${a}
    class=${r?"wide":""}
    aria-labelledby="modal-title"
    onCancel=${o=>(o.preventDefault(),e())}
  >
    <h2 id="modal-title">${t}</h2>
    ${n}
  </dialog>`}function Ee({info:t,onPage:e,label:n}){if(!t)return null;let r=Math.max(1,t.total_pages??1);return d`<nav class="pager" aria-label=${n}>
    <button
      type="button"
      onClick=${()=>e(1)}
      disabled=${t.page<=1}
      aria-label="First page"
    >
      «
    </button>
    <button type="button" onClick=${()=>e(t.page-1)} disabled=${t.page<=1}>
      ‹ Previous
    </button>
    <span class="page-info" aria-live="polite"
      >Page ${t.page.toLocaleString("en")} of ${r.toLocaleString("en")} ·
      ${t.total_count.toLocaleString("en")} total</span
    >
    <button type="button" onClick=${()=>e(t.page+1)} disabled=${t.page>=r}>
      Next ›
    </button>
    <button
      type="button"
      onClick=${()=>e(r)}
      disabled=${t.page>=r}
      aria-label="Last page"
    >
      »
    </button>
  </nav>`}function Kt({messages:t}){return!t||t.length===0?null:d`<div class="alert error" role="alert">
    <ul>
      ${t.map(e=>d`<li>${e}</li>`)}
    </ul>
  </div>`}var Qt=t=>t?`${Z(t)} (TTL ${t.ttl===1?"auto":t.ttl}${t.proxied?", proxied":""})`:"\u2014";function Jt({zone:t,version:e}){let[n,r]=y(1),[a,o]=y(null),[i,s]=y(null),[u,p]=y(()=>new Map([["dev","local dev token"]]));return D(()=>{P("GET","/user/tokens").then(({result:l})=>p(h=>new Map([...h,...l.map(f=>[f.id,f.name])]))).catch(()=>{})},[]),D(()=>{P("GET",`/zones/${t.id}/dns_records/audit?page=${n}&per_page=25`).then(({result:l,result_info:h})=>(o({rows:l,info:h}),s(null))).catch(l=>s(l.message))},[t.id,n,e]),d`<section aria-labelledby="audit-heading">
    <h2 id="audit-heading">Audit log</h2>
    ${i?d`<p class="alert error" role="alert">${i}</p>`:null}
    ${a?d`<div class="table-wrap">
              <table class="audit">
                <thead>
                  <tr>
                    <th>Seq</th>
                    <th>When</th>
                    <th>Token</th>
                    <th>Action</th>
                    <th>Before</th>
                    <th>After</th>
                  </tr>
                </thead>
                <tbody>
                  ${a.rows.length===0?d`<tr>
                          <td colspan="6" class="empty">No changes yet.</td>
                        </tr>`:null}
                  ${a.rows.map(l=>d`<tr>
                        <td>${l.seq}</td>
                        <td>
                          <time datetime=${l.when}>${new Date(l.when).toLocaleString()}</time>
                        </td>
                        <td>
                          ${l.token_id===null?"\u2014":u.has(l.token_id)?d`${u.get(l.token_id)} <span class="mono muted">${l.token_id}</span>`:d`<span class="mono">${l.token_id}</span>`}
                        </td>
                        <td><span class=${`action ${l.action}`}>${l.action}</span></td>
                        <td class="content">${Qt(l.before)}</td>
                        <td class="content">${Qt(l.after)}</td>
                      </tr>`)}
                </tbody>
              </table>
            </div>
            <${Ee} info=${a.info} label="Audit log pages" onPage=${r} />`:d`<p aria-busy="true">Loading…</p>`}
  </section>`}var A=class extends Error{line;column;reason;constructor(e,n){super(`line ${n.line}, column ${n.column}: ${e}`),this.name="ZoneFileError",this.line=n.line,this.column=n.column,this.reason=e}};var Ce=10,tt=13,nt=32,ot=9,Ae=34,tn=59,nn=40,on=41,en=92,Gn=61;function Xn(t){return t>=48&&t<=57}function Kn(t){return t===nt||t===ot||t===Ce||t===tt||t===tn||t===nn||t===on||t===Ae}function re(t){return{line:t.line,column:t.column+t.text.length}}function*rn(t){let e=t.length,n=t.charCodeAt(0)===65279?1:0,r=1,a=n,o=[],i=[],s=!1,u,p=!0,l=m=>({line:r,column:m-a+1}),h=m=>{let g=m+1<e?t.charCodeAt(m+1):-1;if(g===-1||g===Ce||g===tt)throw new A("bad escape sequence",l(m));if(!Xn(g))return 2;let b=t.slice(m+1,m+4);if(!/^\d{3}$/.test(b)||Number(b)>255)throw new A("bad escape sequence",l(m));return 4},f=m=>{let g=m+1;for(;;){let b=g<e?t.charCodeAt(g):-1;if(b===-1||b===Ce)throw new A("unterminated quoted string",l(m));if(b===Ae)return g;g+=b===en?h(g):1}};for(;n<e;){let m=t.charCodeAt(n);if(p&&(p=!1,o.length===0&&i.length===0&&(s=m===nt||m===ot)),m===Ce)o.length===0&&i.length>0&&(yield u===void 0?{tokens:i,blankOwner:s}:{tokens:i,blankOwner:s,comment:u},i=[]),u=void 0,r++,n++,a=n,p=!0;else if(m===nt||m===ot||m===tt)n++;else if(m===tn){let g=t.indexOf(`
`,n);g===-1&&(g=e);let b=t.slice(n+1,g).trim();u=b===""?void 0:b,n=g}else if(m===nn)o.push(l(n)),n++;else if(m===on){if(!o.pop())throw new A("unbalanced parenthesis",l(n));n++}else if(m===Ae){let g=f(n);i.push({text:t.slice(n,g+1),line:r,column:n-a+1,quoted:!0}),n=g+1}else{let g=n;for(;g<e;){let b=t.charCodeAt(g);if(b===Ae&&g>n&&t.charCodeAt(g-1)===Gn){g=f(g)+1;continue}if(Kn(b))break;g+=b===en?h(g):1}i.push({text:t.slice(n,g),line:r,column:n-a+1,quoted:!1}),n=g}}let c=o.pop();if(c)throw new A("unbalanced parenthesis",c);i.length>0&&(yield u===void 0?{tokens:i,blankOwner:s}:{tokens:i,blankOwner:s,comment:u})}var Qn={w:604800,d:86400,h:3600,m:60,s:1},Jn=/^(?:\d+[wdhms])+$/i,eo=/(\d+)([wdhms])/gi;function ae(t){let e;if(/^\d+$/.test(t))e=Number(t);else if(Jn.test(t)){e=0;for(let[,n,r]of t.matchAll(eo))e+=Number(n)*(Qn[r.toLowerCase()]??0)}else return;return e<=2147483647?e:void 0}var to=new Set(["CH","CHAOS","HS","HESIOD","CS","CSNET","NONE","ANY"]),no=/^[A-Z][A-Z0-9-]*$/;function oo(t){return t==="IN"||to.has(t)||/^CLASS\d+$/.test(t)}function rt(t,e){let n=e,r,a=!1;for(;;){let u=t[n];if(!u||u.quoted)break;let p=u.text.toUpperCase(),l=u.text.charCodeAt(0);if(r===void 0&&l>=48&&l<=57){if(r=ae(u.text),r===void 0)throw new A(`bad TTL "${u.text}"`,u)}else if(!a&&oo(p)){if(p!=="IN"&&p!=="CLASS1")throw new A(`unsupported class ${u.text}`,u);a=!0}else break;n++}let o=t[n];if(!o)throw new A("missing record type",re(t[n-1]));let i=o.text.toUpperCase();if(o.quoted||!no.test(i))throw new A(`bad record type "${o.text}"`,o);if(n+1>=t.length)throw new A("missing rdata",re(o));let s=t.slice(n+1);return r===void 0?{type:i,rdata:s}:{ttl:r,type:i,rdata:s}}function an(t){let e=t[0]?.text??"";for(let n=1;n<t.length;n++)e+=" "+t[n].text;return e}var at=4294967295,ro=255;function sn(t){let e=/^(\d+)-(\d+)(?:\/(\d+))?$/.exec(t.text),n=Number(e?.[1]),r=Number(e?.[2]),a=e?.[3]===void 0?1:Number(e[3]);if(!e||t.quoted||n>r||r>at||a<1||a>at)throw new A(`bad $GENERATE range "${t.text}"`,t);return{start:n,stop:r,step:a,count:Math.floor((r-n)/a)+1}}function st(t,e){let{text:n}=t,r=[],a="",o=0;for(;o<n.length;){let i=n[o],s=n[o+1];if(i==="\\"&&s!==void 0)a+=s==="$"?"$":i+s,o+=2;else if(i==="$"&&s==="$")a+="$",o+=2;else if(i==="$"){let u={line:t.line,column:t.column+o},p={offset:0,width:0,base:"d"};if(o++,s==="{"){let f=n.indexOf("}",o),c=/^([+-]?\d+)(?:,(\d+)(?:,([doxXnN]))?)?$/.exec(n.slice(o+1,f));if(f===-1||!c||Number(c[2]??0)>ro)throw new A("bad $GENERATE modifier",u);p={offset:Number(c[1]),width:Number(c[2]??0),base:c[3]??"d"},o=f+1}let l=e.start+p.offset,h=e.stop+p.offset;if(l<0||h>at)throw new A("$GENERATE value out of range",u);a!==""&&r.push(a),a="",r.push(p)}else a+=i,o++}return a!==""&&r.push(a),r}function ao(t,e,n){let r="",a=t,o=e;do{let i=(a%16).toString(16);r+=n?i.toUpperCase():i,a=Math.floor(a/16),o>0&&o--,(o>0||a!==0)&&(r+=".",o>0&&o--)}while(a!==0||o>0);return r}function so(t,{width:e,base:n}){switch(n){case"n":case"N":return ao(t,e,n==="N");case"o":return t.toString(8).padStart(e,"0");case"x":return t.toString(16).padStart(e,"0");case"X":return t.toString(16).toUpperCase().padStart(e,"0");default:return t.toString(10).padStart(e,"0")}}function Pe(t,e){let n="";for(let r of t)n+=typeof r=="string"?r:so(e+r.offset,r);return n}function ln(t){if(t===""||t.startsWith("."))return!1;for(let e=0;e<t.length;e++){let n=t[e];if(n==="\\")e++;else if(n==="."&&(e+1===t.length||t[e+1]==="."))return!1}return!0}function Ne(t,e){if(t==="@")return e;if(t===".")return"";if(Qe(t)){let r=t.slice(0,-1);return ln(r)?r.toLowerCase():void 0}if(!ln(t))return;let n=t.toLowerCase();return e===""?n:`${n}.${e}`}function it(t){let e=t.trim(),n=Ne(e===""||e==="."?".":e,"");if(n===void 0||e==="@")throw new TypeError(`invalid origin "${t}"`);return n}function lt(t){return t===""?".":t}var io=1e6,ct=class{entries=[];origin;max;fallbackTtl;zoneTtl;lastTtl;previousOwner;constructor(e){this.origin=it(e.origin),this.max=e.maxRecords??io,this.fallbackTtl=e.defaultTtl}line(e){let n=e.tokens[0];!e.blankOwner&&!n.quoted&&n.text.startsWith("$")?this.directive(e):this.record(e)}record(e){let n=e.tokens[0],r;if(e.blankOwner){if(this.previousOwner===void 0)throw new A("no previous owner name",n);r=this.previousOwner}else r=this.name(n),this.previousOwner=r;let a=rt(e.tokens,e.blankOwner?0:1),o=this.resolveTtl(a,n);this.push(r,o,a.type,an(a.rdata),e.comment,n)}directive(e){let[n,...r]=e.tokens;switch(n.text.toUpperCase()){case"$ORIGIN":this.origin=this.name(this.single(n,r,"a name"));return;case"$TTL":{let a=this.single(n,r,"a value"),o=ae(a.text);if(o===void 0||a.quoted)throw new A(`bad TTL "${a.text}"`,a);this.zoneTtl=o;return}case"$GENERATE":this.generate(e);return;case"$INCLUDE":throw new A("$INCLUDE directive not allowed",n);default:throw new A(`unknown directive ${n.text}`,n)}}generate(e){let[n,r,a]=e.tokens;if(!r||!a)throw new A("$GENERATE needs a range, owner, type and rdata",re(n));let o=sn(r),i=rt(e.tokens,3),s=this.resolveTtl(i,n);this.entries.length+o.count>this.max&&this.tooMany(n);let u=st(a,o),p=i.rdata.map(l=>st(l,o));for(let l=o.start;l<=o.stop;l+=o.step){let h=this.name({...a,text:Pe(u,l)}),f=Pe(p[0],l);for(let c=1;c<p.length;c++)f+=" "+Pe(p[c],l);this.push(h,s,i.type,f,e.comment,n)}}single(e,n,r){let[a,o]=n;if(!a)throw new A(`${e.text} needs ${r}`,re(e));if(o)throw new A(`unexpected "${o.text}"`,o);return a}name(e){if(e.quoted)throw new A("name cannot be a quoted string",e);let n=Ne(e.text,this.origin);if(n===void 0)throw new A(`bad name "${e.text}"`,e);return n}resolveTtl(e,n){if(e.ttl!==void 0)return this.lastTtl=e.ttl,e.ttl;if(this.zoneTtl!==void 0)return this.zoneTtl;if(this.lastTtl!==void 0)return this.lastTtl;let r=e.type==="SOA"?e.rdata[6]:void 0,a=r&&!r.quoted?ae(r.text):void 0;if(a!==void 0)return this.zoneTtl=a,a;if(this.fallbackTtl!==void 0)return this.fallbackTtl;throw new A("no TTL specified",n)}push(e,n,r,a,o,i){this.entries.length>=this.max&&this.tooMany(i);let s={name:lt(e),ttl:n,class:"IN",type:r,rdata:a,origin:lt(this.origin),line:i.line};o!==void 0&&(s.comment=o),this.entries.push(s)}tooMany(e){throw new A(`too many records (limit ${this.max})`,e)}};function ut(t,e){let n=new ct(e);for(let r of rn(t))n.line(r);return n.entries}function cn(t,e){let n=ut(t,{origin:e,defaultTtl:1}),r=[],a=[];for(let o of n)o.type==="SOA"||o.type==="NS"&&o.name===e?a.push({...o,why:o.type==="SOA"?"the zone keeps its own SOA":"the zone keeps its own apex NS"}):r.push(o);return{create:r,skipped:a}}var dt=500;function un({zone:t,readOnly:e,onChanged:n,onForbidden:r,notify:a}){let[o,i]=y(null),[s,u]=y(null),[p,l]=y(null),[h,f]=y(!1),[c,m]=y(null),[g,b]=y(null),[w,$]=y(!1);async function v(T){let x=T.currentTarget.files?.[0]??null;if(i(x),u(null),l(null),m(null),b(null),!!x)try{u(cn(await x.text(),t.name))}catch(N){l(N.message)}}async function k(){$(!0),b(null);let T=new FormData;T.append("file",o,o.name),h&&T.append("proxied","true");try{let{result:x,messages:N}=await P("POST",`/zones/${t.id}/dns_records/import`,T);m({...x,messages:N??[]}),u(null),a(`Imported ${x.recs_added} records.`),n()}catch(x){x.forbidden&&r(x),b(`${x.message} \u2014 nothing was imported.`)}finally{$(!1)}}async function S(){try{let T=await Ht(`/zones/${t.id}/dns_records/export`),x=URL.createObjectURL(new Blob([T],{type:"text/plain"})),N=Object.assign(document.createElement("a"),{href:x,download:`${t.name}.zone`});document.body.append(N),N.click(),N.remove(),setTimeout(()=>URL.revokeObjectURL(x),1e3),a(`Exported ${t.name}.zone`)}catch(T){a(`Export failed: ${T.message}`,!0)}}return d`<section aria-labelledby="ie-heading">
    <h2 id="ie-heading">Import and export</h2>
    <div class="card">
      <h3>Export</h3>
      <p>Download every record of ${t.name} as a BIND zone file.</p>
      <button type="button" onClick=${S}>Export zone file</button>
    </div>
    ${e?null:d`<div class="card">
            <h3>Import</h3>
            <p>
              Choose a BIND zone file. You see what will be created before anything changes; the
              import then runs as one batch: all records are added, or none.
            </p>
            <div class="field">
              <label for="zone-file">Zone file</label>
              <input
                id="zone-file"
                type="file"
                accept=".zone,.txt,.db,text/plain"
                onChange=${v}
              />
            </div>
            <div class="field check">
              <label
                ><input
                  type="checkbox"
                  checked=${h}
                  onChange=${T=>f(T.currentTarget.checked)}
                />
                Proxy imported A, AAAA and CNAME records</label
              >
            </div>
            ${p?d`<p class="alert error" role="alert">Cannot read the file: ${p}</p>`:null}
            ${s?d`<div class="preview" aria-labelledby="preview-heading">
                    <h4 id="preview-heading">
                      Preview: ${s.create.length}
                      record${s.create.length===1?"":"s"} to
                      create${s.skipped.length?`, ${s.skipped.length} skipped`:""}
                    </h4>
                    <div class="table-wrap">
                      <table>
                        <thead>
                          <tr>
                            <th>Line</th>
                            <th>Type</th>
                            <th>Name</th>
                            <th>TTL</th>
                            <th>Content</th>
                          </tr>
                        </thead>
                        <tbody>
                          ${s.create.slice(0,dt).map(T=>d`<tr>
                                <td>${T.line}</td>
                                <td>${T.type}</td>
                                <td>${T.name}</td>
                                <td>${T.ttl}</td>
                                <td class="content">${T.rdata}</td>
                              </tr>`)}
                          ${s.skipped.map(T=>d`<tr class="muted">
                                <td>${T.line}</td>
                                <td>${T.type}</td>
                                <td>${T.name}</td>
                                <td>${T.ttl}</td>
                                <td>skipped: ${T.why}</td>
                              </tr>`)}
                        </tbody>
                      </table>
                    </div>
                    ${s.create.length>dt?d`<p>… and ${s.create.length-dt} more.</p>`:null}
                    <p class="muted">
                      Records identical to existing ones are skipped by the server and reported
                      after the import.
                    </p>
                    <button
                      type="button"
                      class="primary"
                      disabled=${w||s.create.length===0}
                      onClick=${k}
                    >
                      Import ${s.create.length} records
                    </button>
                  </div>`:null}
            ${g?d`<p class="alert error" role="alert">${g}</p>`:null}
            ${c?d`<div class="alert ok" role="status">
                    <p>
                      Imported ${c.recs_added} of ${c.total_records_parsed} records
                      parsed.
                    </p>
                    ${c.messages.length?d`<ul>
                            ${c.messages.map(T=>d`<li>${T.message}</li>`)}
                          </ul>`:null}
                  </div>`:null}
          </div>`}
  </section>`}function dn({onLogin:t}){let[e,n]=y(""),[r,a]=y(null),[o,i]=y(null),s=H(null);D(()=>{s.current?.focus(),Bt().then(i)},[]);async function u(p){a(null);try{await P("GET","/user/tokens/verify",void 0,p),t(p)}catch(l){a(l.status===403?"That token is not valid (unknown, revoked or expired).":l.message),s.current?.focus()}}return d`<main class="login">
    <form
      class="card"
      onSubmit=${p=>(p.preventDefault(),u(e.trim()))}
      aria-labelledby="login-heading"
    >
      <h1 id="login-heading">Sign in to edgedns</h1>
      <p>
        Paste an API token. It stays in this browser tab only (never in the address bar) and is
        forgotten when the tab closes.
      </p>
      <div class="field">
        <label for="login-token">API token</label>
        <input
          id="login-token"
          ref=${s}
          type="password"
          autocomplete="off"
          required
          value=${e}
          onInput=${p=>n(p.currentTarget.value)}
          aria-invalid=${r?"true":void 0}
          aria-describedby=${r?"login-error":void 0}
        />
        ${r?d`<small id="login-error" class="error" role="alert">${r}</small>`:null}
      </div>
      <div class="actions">
        <button type="submit" class="primary">Sign in</button>
        ${o?d`<button type="button" onClick=${()=>u(o)}>Use the local dev token</button>`:null}
      </div>
      ${o?d`<p class="hint">Local development (<code>pnpm dev</code>): the dev token can do everything and exists only here.</p>`:null}
    </form>
  </main>`}function pn({zone:t,version:e}){let[n,r]=y(null),[a,o]=y(0);if(D(()=>{let u=!1,p;return P("GET",`/zones/${t.id}/propagation`).then(({result:l})=>{u||(r(l),l.built_seq<l.committed_seq&&(p=setTimeout(()=>o(h=>h+1),1e3)))}).catch(()=>!u&&r(null)),()=>(u=!0,clearTimeout(p))},[t.id,e,a]),!n)return null;let i=n.built_seq<n.committed_seq,s=`Committed change ${n.committed_seq}, built ${n.built_seq}${n.built_at?` at ${n.built_at}`:""}`;return d`<span
    class=${`pill${i?" behind":" live"}${n.last_error?" failed":""}`}
    role="status"
    title=${s}
    data-testid="propagation"
  >
    ${i?`Propagating: built ${n.built_seq} of ${n.committed_seq} (${Math.round(n.lag_ms/100)/10} s)`:`Live \xB7 change ${n.committed_seq} built`}
    ${n.last_error?` \xB7 last build error: ${n.last_error.message}`:""}
  </span>`}function fn({zone:t}){let[e,n]=y(`www.${t.name}`),[r,a]=y("A"),[o,i]=y(null);async function s(u){u.preventDefault();let p=new URLSearchParams({name:e.trim(),type:r.trim()||"A"}),l=await fetch(`/dns-query?${p}`,{headers:{accept:"application/dns-json"}});i(l.ok?JSON.stringify(await l.json(),null,2):`HTTP ${l.status}: ${await l.text()}`)}return d`<section aria-labelledby="query-heading">
    <h2 id="query-heading">Query over DNS-over-HTTPS</h2>
    <form class="toolbar" onSubmit=${s}>
      <div class="field inline">
        <label for="q-name">Name</label
        ><input id="q-name" value=${e} onInput=${u=>n(u.currentTarget.value)} />
      </div>
      <div class="field inline">
        <label for="q-type">Type</label
        ><input
          id="q-type"
          size="8"
          value=${r}
          onInput=${u=>a(u.currentTarget.value)}
        />
      </div>
      <button type="submit" class="primary">Resolve</button>
    </form>
    ${o?d`<pre class="card mono" aria-label="Answer" role="status">${o}</pre>`:null}
  </section>`}function mn(t,e){let n=[],r=[],a=[];if(t.kind==="delete"){for(let s of e)n.push(s),r.push(`Delete ${Z(s)}`);return{title:`Delete ${n.length} record${n.length===1?"":"s"}`,body:{deletes:n.map(s=>({id:s.id}))},items:n,lines:r,unchanged:a,key:"deletes"}}let o=[];for(let s of e)t.kind==="proxy"?s.proxiable?s.proxied===t.on?a.push(`${Z(s)} \u2014 already ${t.on?"proxied":"DNS only"}`):(n.push(s),o.push({id:s.id,proxied:t.on}),r.push(`${t.on?"Proxy":"Stop proxying"} ${Z(s)}`)):a.push(`${Z(s)} \u2014 cannot be proxied`):t.kind==="ttl"&&(s.ttl===t.ttl?a.push(`${Z(s)} \u2014 TTL already ${te(t.ttl)}`):(n.push(s),o.push({id:s.id,ttl:t.ttl}),r.push(`TTL ${te(s.ttl)} \u2192 ${te(t.ttl)}: ${Z(s)}`)));return{title:`${t.kind==="ttl"?`Set TTL to ${te(t.ttl)} on`:t.on?"Turn proxy on for":"Turn proxy off for"} ${n.length} record${n.length===1?"":"s"}`,body:{patches:o},items:n,lines:r,unchanged:a,key:"patches"}}function te(t){return t===1?"Auto":`${t} s`}function _n(t,e){return t.errors.map(n=>{let r=/^\/(deletes|patches|puts|posts)\/(\d+)/.exec(n.source?.pointer??""),a=r?e.items[Number(r[2])]:void 0;return`${r?`${n.source.pointer}${a?` (${Z(a)})`:""}: `:""}${n.message} (code ${n.code})`})}var lo=new Set([9005,9006,9007,9009,9036,...Array.from({length:16},(t,e)=>9121+e)]),co=new Set([81053,81054,81058]);function uo(t,e){let{code:n,message:r}=t,a=/\bdata\.([a-z_]+)/.exec(r);return a&&e.has(`data.${a[1]}`)?`data.${a[1]}`:n===9008||n===9100?e.has("priority")?"priority":e.has("data.priority")?"data.priority":"_form":n===9021?"ttl":n===9041?"proxied":n===9150?"comment":co.has(n)?"name":lo.has(n)&&e.has("content")?"content":n===9e3&&/\bname\b/i.test(r)?"name":/\bcontent\b/i.test(r)&&e.has("content")?"content":"_form"}function Re(t,e){let n=new Set(e),r={};for(let a of t.errors??[{code:0,message:String(t.message)}]){let o=uo(a,n);r[o]=r[o]?`${r[o]}; ${a.message}`:a.message}return r}var po={key:"ttl",label:"TTL (seconds)",kind:"number",min:1,max:86400,hint:"1 = automatic, else 60\u201386400"},fo={key:"comment",label:"Comment",kind:"text",hint:"optional"};function hn({zone:t,record:e,onSaved:n,onCancel:r,onForbidden:a}){let[o,i]=y(()=>e?Gt(e,t.name):Se("A")),[s,u]=y({}),[p,l]=y(!1),h=H(null),f=o.type,c={key:"name",label:f==="SRV"?"Host (@ for the zone apex)":"Name",kind:"text",hint:`relative to ${t.name}; @ for the apex`},m=J(f),g=($,v)=>i(k=>({...k,[$]:v})),b=$=>{let v=Se($.currentTarget.value);i(k=>({...v,name:k.name,ttl:k.ttl,comment:k.comment})),u({})};async function w($){$.preventDefault(),l(!0),u({});let v=Xt(o);try{let k=`/zones/${t.id}/dns_records${e?`/${e.id}`:""}`,{result:S}=await P(e?"PUT":"POST",k,v);n(S,e?"Saved":"Added")}catch(k){k.forbidden&&a(k);let S=Re(k,["name","ttl","proxied","comment",...m.map(T=>T.key)]);u(S),l(!1),requestAnimationFrame(()=>h.current?.querySelector('[aria-invalid="true"], .form-error')?.focus())}}return d`<form
    ref=${h}
    class="record-form"
    onSubmit=${w}
    aria-label=${e?"Edit record":"Add record"}
    novalidate
  >
    <div class="field">
      <label for="record-type">Type</label>
      <select id="record-type" value=${f} onChange=${b} disabled=${!!e}>
        ${we.map($=>d`<option value=${$}>${$}</option>`)}
      </select>
    </div>
    ${f==="SRV"?m.slice(0,2).map($=>d`<${X} field=${$} value=${o[$.key]} error=${s[$.key]} onInput=${g} />`):null}
    <${X} field=${c} value=${o.name} error=${s.name} onInput=${g} />
    ${(f==="SRV"?m.slice(2):m).map($=>d`<${X} field=${$} value=${o[$.key]} error=${s[$.key]} onInput=${g} />`)}
    <${X} field=${po} value=${o.ttl} error=${s.ttl} onInput=${g} />
    ${Je.has(f)?d`<div
            class=${`field check${s.proxied?" has-error":""}`}
            data-field="proxied"
          >
            <label
              ><input
                type="checkbox"
                checked=${o.proxied}
                onChange=${$=>g("proxied",$.currentTarget.checked)}
              />
              Proxied</label
            >
            ${s.proxied?d`<small class="error" role="alert">${s.proxied}</small>`:null}
          </div>`:null}
    <${X}
      field=${fo}
      value=${o.comment}
      error=${s.comment}
      onInput=${g}
    />
    ${s._form?d`<p class="alert error form-error" role="alert" tabindex="-1">${s._form}</p>`:null}
    <div class="actions">
      <button type="submit" class="primary" disabled=${p}>
        ${e?"Save record":"Add record"}
      </button>
      <button type="button" onClick=${r}>Cancel</button>
    </div>
  </form>`}var mo=[["type","Type"],["name","Name"],["content","Content"],["ttl","TTL"],["proxied","Proxy status"]],_o=[25,50,100,250];function gn({zone:t,readOnly:e,onChanged:n,onForbidden:r,notify:a}){let[o,i]=y({search:"",type:"",order:"type",direction:"asc",page:1,perPage:50}),[s,u]=y(""),[p,l]=y({records:[],info:null}),[h,f]=y(!1),[c,m]=y(null),[g,b]=y(()=>new Map),[w,$]=y(null),[v,k]=y(null),[S,T]=y(null),[x,N]=y(null),[E,R]=y("300"),z=H(0),q=ne(async()=>{let _=++z.current;f(!0);let C=new URLSearchParams({page:String(o.page),per_page:String(o.perPage),order:o.order,direction:o.direction});o.type&&C.set("type",o.type),o.search&&C.set("search",o.search);try{let{result:j,result_info:W}=await P("GET",`/zones/${t.id}/dns_records?${C}`);if(_!==z.current)return;l({records:j,info:W}),m(null)}catch(j){_===z.current&&m(j.message)}finally{_===z.current&&f(!1)}},[t.id,o]);D(()=>{q()},[q]),D(()=>{b(new Map),$(null)},[t.id]);let F=async _=>{a(_),n(),await q()},Tn=_=>i(C=>({...C,order:_,direction:C.order===_&&C.direction==="asc"?"desc":"asc",page:1})),wn=(_,C)=>b(j=>{let W=new Map(j);return C?W.set(_.id,_):W.delete(_.id),W}),ft=p.records.map(_=>_.id),Sn=ft.length>0&&ft.every(_=>g.has(_)),En=_=>b(C=>{let j=new Map(C);for(let W of p.records)_?j.set(W.id,W):j.delete(W.id);return j}),fe=_=>{N(null),T(mn(_,[...g.values()]))};async function Cn(){try{await P("POST",`/zones/${t.id}/dns_records/batch`,S.body);let _=S.title;T(null),b(new Map),await F(`Done: ${_}.`)}catch(_){_.forbidden&&r(_),N(_n(_,S))}}async function An(_){try{await P("PATCH",`/zones/${t.id}/dns_records/${_.id}`,{proxied:!_.proxied}),await F(`${_.name}: proxy ${_.proxied?"off":"on"}.`)}catch(C){C.forbidden&&r(C),a(`${_.name}: ${C.message}`,!0)}}let Pn=p.info,mt=g.size;return d`<section aria-labelledby="records-heading">
    <div class="section-head">
      <h2 id="records-heading">DNS records</h2>
      ${e?null:d`<button type="button" class="primary" onClick=${()=>k({record:null})}>Add record</button>`}
    </div>
    <form
      class="toolbar"
      role="search"
      onSubmit=${_=>(_.preventDefault(),i(C=>({...C,search:s.trim(),page:1})))}
    >
      <div class="field inline">
        <label for="record-search">Search</label>
        <input
          id="record-search"
          type="search"
          placeholder="name, content or comment"
          value=${s}
          onInput=${_=>u(_.currentTarget.value)}
        />
      </div>
      <button type="submit">Search</button>
      <div class="field inline">
        <label for="type-filter">Type</label>
        <select
          id="type-filter"
          value=${o.type}
          onChange=${_=>i(C=>({...C,type:_.currentTarget.value,page:1}))}
        >
          <option value="">All types</option>
          ${we.map(_=>d`<option value=${_}>${_}</option>`)}
        </select>
      </div>
      <div class="field inline">
        <label for="page-size">Per page</label>
        <select
          id="page-size"
          value=${String(o.perPage)}
          onChange=${_=>i(C=>({...C,perPage:Number(_.currentTarget.value),page:1}))}
        >
          ${_o.map(_=>d`<option value=${String(_)}>${_}</option>`)}
        </select>
      </div>
    </form>

    ${mt>0&&!e?d`<div class="bulk-bar" role="region" aria-label="Bulk actions">
            <strong>${mt} selected</strong>
            <button type="button" class="danger" onClick=${()=>fe({kind:"delete"})}>
              Delete
            </button>
            <button type="button" onClick=${()=>fe({kind:"proxy",on:!0})}>
              Proxy on
            </button>
            <button type="button" onClick=${()=>fe({kind:"proxy",on:!1})}>
              Proxy off
            </button>
            <span class="ttl-group">
              <label for="bulk-ttl">TTL</label>
              <select id="bulk-ttl" value=${E} onChange=${_=>R(_.currentTarget.value)}>
                ${[1,60,300,3600,86400].map(_=>d`<option value=${String(_)}>${te(_)}</option>`)}
              </select>
              <button type="button" onClick=${()=>fe({kind:"ttl",ttl:Number(E)})}>
                Set TTL
              </button>
            </span>
            <button type="button" class="link" onClick=${()=>b(new Map)}>
              Clear selection
            </button>
          </div>`:null}
    ${c?d`<p class="alert error" role="alert">${c}</p>`:null}
    <div class="table-wrap">
      <table
        class="records"
        aria-busy=${h?"true":"false"}
        aria-describedby="records-heading"
      >
        <thead>
          <tr>
            ${e?null:d`<th class="sel"><input type="checkbox" aria-label="Select all records on this page" checked=${Sn} onChange=${_=>En(_.currentTarget.checked)} /></th>`}
            ${mo.map(([_,C])=>d`<th
                  aria-sort=${o.order===_?o.direction==="asc"?"ascending":"descending":"none"}
                  class=${`col-${_}`}
                >
                  <button type="button" class="sort" onClick=${()=>Tn(_)}>
                    ${C}${o.order===_?o.direction==="asc"?" \u25B2":" \u25BC":""}
                  </button>
                </th>`)}
            ${e?null:d`<th><span class="visually-hidden">Actions</span></th>`}
          </tr>
        </thead>
        <tbody>
          ${p.records.length===0&&!h?d`<tr>
                  <td colspan="7" class="empty">No records match.</td>
                </tr>`:null}
          ${p.records.map(_=>w===_.id?d`<${go}
                  key=${_.id}
                  zone=${t}
                  record=${_}
                  onDone=${async C=>($(null),C&&await F(C))}
                  onForbidden=${r}
                />`:d`<${ho}
                  key=${_.id}
                  zone=${t}
                  record=${_}
                  readOnly=${e}
                  selected=${g.has(_.id)}
                  onSelect=${C=>wn(_,C)}
                  onEdit=${()=>$(_.id)}
                  onMore=${()=>k({record:_})}
                  onProxy=${()=>An(_)}
                />`)}
        </tbody>
      </table>
    </div>
    <${Ee}
      info=${Pn}
      label="Records pages"
      onPage=${_=>i(C=>({...C,page:_}))}
    />

    ${S?d`<${ee} title=${S.title} onClose=${()=>T(null)}>
            <p>One batch, applied as a whole: either every change below is made, or none is.</p>
            ${S.lines.length>0?d`<ul class="change-list" aria-label="Changes">
                    ${S.lines.map(_=>d`<li>${_}</li>`)}
                  </ul>`:d`<p>Nothing to change.</p>`}
            ${S.unchanged.length>0?d`<details>
                    <summary>
                      ${S.unchanged.length} selected
                      record${S.unchanged.length===1?"":"s"} left unchanged
                    </summary>
                    <ul class="change-list">
                      ${S.unchanged.map(_=>d`<li>${_}</li>`)}
                    </ul>
                  </details>`:null}
            <${Kt} messages=${x} />
            ${x?d`<p>Nothing was changed.</p>`:null}
            <div class="actions">
              <button
                type="button"
                class=${S.key==="deletes"?"danger":"primary"}
                disabled=${S.items.length===0}
                onClick=${Cn}
              >
                Apply ${S.items.length} change${S.items.length===1?"":"s"}
              </button>
              <button type="button" onClick=${()=>T(null)}>Cancel</button>
            </div>
          <//>`:null}
    ${v?d`<${ee}
            title=${v.record?`Edit ${v.record.type} ${v.record.name}`:"Add record"}
            onClose=${()=>k(null)}
            wide
          >
            <${hn}
              zone=${t}
              record=${v.record}
              onForbidden=${r}
              onCancel=${()=>k(null)}
              onSaved=${async(_,C)=>(k(null),await F(`${C} ${_.type} ${_.name}.`))}
            />
          <//>`:null}
  </section>`}function ho({zone:t,record:e,readOnly:n,selected:r,onSelect:a,onEdit:o,onMore:i,onProxy:s}){let u=`${e.type} ${e.name}`;return d`<tr class=${r?"selected":""}>
    ${n?null:d`<td class="sel"><input type="checkbox" aria-label=${`Select ${u} ${e.content}`} checked=${r} onChange=${p=>a(p.currentTarget.checked)} /></td>`}
    <td class="col-type"><span class="type">${e.type}</span></td>
    <td class="col-name">${pe(e.name,t.name)}<span class="fqdn">${e.name}</span></td>
    <td class="col-content content">
      ${et(e)?d`<span class="prio">${e.priority}</span> `:null}${e.content}${e.comment?d`<div class="comment">${e.comment}</div>`:null}
    </td>
    <td class="col-ttl">${te(e.ttl)}</td>
    <td class="col-proxied">
      ${e.proxiable&&!n?d`<button
              type="button"
              role="switch"
              class=${`switch${e.proxied?" on":""}`}
              aria-checked=${e.proxied?"true":"false"}
              aria-label=${`Proxy ${u}`}
              onClick=${s}
            >
              <span>${e.proxied?"Proxied":"DNS only"}</span>
            </button>`:d`<span class="muted">${e.proxied?"Proxied":"DNS only"}</span>`}
    </td>
    ${n?null:d`<td class="row-actions">
            <button type="button" onClick=${o} aria-label=${`Edit ${u} inline`}>
              Edit
            </button>
            <button
              type="button"
              class="link"
              onClick=${i}
              aria-label=${`Edit all fields of ${u}`}
            >
              Fields…
            </button>
          </td>`}
  </tr>`}function go({zone:t,record:e,onDone:n,onForbidden:r}){let a=J(e.type).some(v=>v.key==="content"),[o,i]=y(pe(e.name,t.name)),[s,u]=y(e.content),[p,l]=y(e.priority===void 0?"":String(e.priority)),[h,f]=y(String(e.ttl)),[c,m]=y({}),g=H(null);D(()=>g.current?.focus(),[]);async function b(v){v?.preventDefault();let k={};if(o!==pe(e.name,t.name)&&(k.name=o),s!==e.content&&(k.content=s),e.type==="MX"&&p!==String(e.priority)&&(k.priority=Number(p)),h!==String(e.ttl)&&(k.ttl=Number(h)),Object.keys(k).length===0)return n(null);try{await P("PATCH",`/zones/${t.id}/dns_records/${e.id}`,k),n(`Saved ${e.type} ${o==="@"?t.name:o}.`)}catch(S){S.forbidden&&r(S),m(Re(S,["name","content","priority","ttl"]))}}let w=v=>{v.key==="Escape"&&n(null),v.key==="Enter"&&b(v)},$=v=>c[v]?d`<small class="error" role="alert">${c[v]}</small>`:null;return d`<tr class="editing" onKeyDown=${w}>
    <td class="sel"></td>
    <td class="col-type"><span class="type">${e.type}</span></td>
    <td class="col-name">
      <input
        ref=${g}
        aria-label="Name"
        value=${o}
        onInput=${v=>i(v.currentTarget.value)}
        aria-invalid=${c.name?"true":void 0}
      />${$("name")}
    </td>
    <td class="col-content">
      ${e.type==="MX"?d`<input class="prio-input" type="number" aria-label="Priority" value=${p} onInput=${v=>l(v.currentTarget.value)} />`:null}
      ${a?d`<input
              aria-label="Content"
              value=${s}
              onInput=${v=>u(v.currentTarget.value)}
              aria-invalid=${c.content?"true":void 0}
            />`:d`<span class="content">${e.content}</span>
              <small class="hint">(its fields: use “Fields…”)</small>`}
      ${$("content")}${$("priority")}${$("_form")}
    </td>
    <td class="col-ttl">
      <input
        type="number"
        aria-label="TTL"
        value=${h}
        onInput=${v=>f(v.currentTarget.value)}
        aria-invalid=${c.ttl?"true":void 0}
      />${$("ttl")}
    </td>
    <td class="col-proxied"></td>
    <td class="row-actions">
      <button type="button" class="primary" onClick=${b}>Save</button>
      <button type="button" onClick=${()=>n(null)}>Cancel</button>
    </td>
  </tr>`}var Le=[{key:"soa.mname",label:"Primary name server (MNAME)",kind:"text"},{key:"soa.rname",label:"Responsible mailbox (RNAME)",kind:"text",hint:"e.g. hostmaster.example.com"},{key:"soa.refresh",label:"Refresh (s)",kind:"number",min:0},{key:"soa.retry",label:"Retry (s)",kind:"number",min:0},{key:"soa.expire",label:"Expire (s)",kind:"number",min:0},{key:"soa.min_ttl",label:"Negative-caching TTL (SOA minimum)",kind:"number",min:0},{key:"soa.ttl",label:"SOA record TTL (s)",kind:"number",min:0},{key:"ns_ttl",label:"NS record TTL (s)",kind:"number",min:0},{key:"proxy_addresses.ipv4",label:"Proxy IPv4 addresses",kind:"text",hint:"comma-separated; proxied A records answer these"},{key:"proxy_addresses.ipv6",label:"Proxy IPv6 addresses",kind:"text",hint:"comma-separated; proxied AAAA records answer these"}];function pt(t){let e={ns_ttl:String(t.ns_ttl),"proxy_addresses.ipv4":t.proxy_addresses.ipv4.join(", "),"proxy_addresses.ipv6":t.proxy_addresses.ipv6.join(", ")};for(let[n,r]of Object.entries(t.soa))e[`soa.${n}`]=String(r);return e}function $n(t){let e=r=>r.split(",").map(a=>a.trim()).filter(Boolean),n={};for(let r of Le.filter(a=>a.key.startsWith("soa.")))n[r.key.slice(4)]=r.kind==="number"?Number(t[r.key]):t[r.key].trim();return{soa:n,ns_ttl:Number(t.ns_ttl),proxy_addresses:{ipv4:e(t["proxy_addresses.ipv4"]),ipv6:e(t["proxy_addresses.ipv6"])}}}function yn(t){let e={};for(let n of t.errors){let r=Le.find(o=>n.message===o.key||n.message.startsWith(`${o.key}:`)||n.message.startsWith(`${o.key}.`)),a=r?r.key:"_form";e[a]=e[a]?`${e[a]}; ${n.message}`:n.message}return e}function bn({zone:t,readOnly:e,onForbidden:n,notify:r}){let[a,o]=y(null),[i,s]=y({}),[u,p]=y(null);D(()=>{P("GET",`/zones/${t.id}/dns_settings`).then(({result:h})=>o(pt(h))).catch(h=>p(h.message))},[t.id]);async function l(h){h.preventDefault(),s({});try{let{result:f}=await P("PATCH",`/zones/${t.id}/dns_settings`,$n(a));o(pt(f)),r("Zone settings saved.")}catch(f){f.forbidden&&n(f),s(yn(f))}}return u?d`<p class="alert error" role="alert">${u}</p>`:a?d`<section aria-labelledby="settings-heading">
    <h2 id="settings-heading">Zone settings</h2>
    <form class="settings-form" onSubmit=${l} novalidate>
      <fieldset disabled=${e}>
        <legend>SOA, NS TTL and proxy addresses of ${t.name}</legend>
        <div class="grid">
          ${Le.map(h=>d`<${X} field=${h} value=${a[h.key]} error=${i[h.key]} onInput=${(f,c)=>o(m=>({...m,[f]:c}))} />`)}
        </div>
      </fieldset>
      ${i._form?d`<p class="alert error" role="alert">${i._form}</p>`:null}
      ${e?null:d`<div class="actions"><button type="submit" class="primary">Save settings</button></div>`}
    </form>
  </section>`:d`<p aria-busy="true">Loading settings…</p>`}var Ie="com.cloudflare.api.account.zone.",De="com.cloudflare.api.account.";function vn(t,e,n,r){let a=t.filter(p=>e.includes(p.id)),o=a.filter(p=>p.scopes.includes("com.cloudflare.api.account.zone")),i=a.filter(p=>!p.scopes.includes("com.cloudflare.api.account.zone")),s=[],u=p=>p.map(l=>({id:l.id}));if(o.length){let p=n==="zone"?{[`${Ie}${r.id}`]:"*"}:{[`${De}${r.account.id}`]:{[`${Ie}*`]:"*"}};s.push({effect:"allow",permission_groups:u(o),resources:p})}return i.length&&s.push({effect:"allow",permission_groups:u(i),resources:{[`${De}${r.account.id}`]:"*"}}),s}var $o=t=>t.policies.map(e=>`${e.permission_groups.map(n=>n.name).join(", ")} on ${Object.keys(e.resources).map(n=>n.replace(Ie,"zone ").replace(De,"account ")).join(", ")}`).join("; ");function kn({zone:t,notify:e}){let[n,r]=y(null),[a,o]=y([]),[i,s]=y(null),[u,p]=y(""),[l,h]=y([]),[f,c]=y("zone"),[m,g]=y(null),[b,w]=y(null),[$,v]=y(null),k=()=>P("GET","/user/tokens").then(({result:x})=>(r(x),s(null))).catch(x=>s(x.forbidden?`This token cannot manage API tokens: ${x.message}`:x.message));D(()=>{k(),P("GET","/user/tokens/permission_groups").then(({result:x})=>o(x)).catch(()=>{})},[]);async function S(x){if(x.preventDefault(),g(null),l.length===0)return g("Choose at least one permission.");try{let{result:N}=await P("POST","/user/tokens",{name:u.trim(),policies:vn(a,l,f,t)});w({name:N.name,value:N.value}),p(""),h([]),await k()}catch(N){g(N.message)}}async function T(){try{await P("DELETE",`/user/tokens/${$.id}`),e(`Revoked ${$.name}.`),v(null),await k()}catch(x){e(x.message,!0)}}return i?d`<section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">API tokens</h2>
      <p class="alert error" role="alert">${i}</p>
    </section>`:d`<section aria-labelledby="tokens-heading">
    <h2 id="tokens-heading">API tokens</h2>
    ${b?d`<div class="alert ok secret" role="status">
            <p>
              Token <strong>${b.name}</strong> created. Copy its secret now: it is shown only
              once.
            </p>
            <label for="token-secret">Secret</label>
            <input
              id="token-secret"
              class="mono"
              readonly
              value=${b.value}
              onFocus=${x=>x.currentTarget.select()}
            />
            <button
              type="button"
              onClick=${()=>navigator.clipboard?.writeText(b.value).then(()=>e("Copied."))}
            >
              Copy
            </button>
            <button type="button" class="link" onClick=${()=>w(null)}>
              I have copied it
            </button>
          </div>`:null}
    <form class="card token-form" onSubmit=${S}>
      <h3>Create a token</h3>
      <div class="field">
        <label for="token-name">Token name</label
        ><input
          id="token-name"
          required
          value=${u}
          onInput=${x=>p(x.currentTarget.value)}
        />
      </div>
      <fieldset>
        <legend>Permissions</legend>
        ${a.map(x=>d`<label class="check"
              ><input
                type="checkbox"
                checked=${l.includes(x.id)}
                onChange=${N=>h(E=>N.currentTarget.checked?[...E,x.id]:E.filter(R=>R!==x.id))}
              />
              ${x.name}</label
            >`)}
      </fieldset>
      <fieldset>
        <legend>Zones</legend>
        <label class="check"
          ><input
            type="radio"
            name="token-scope"
            checked=${f==="zone"}
            onChange=${()=>c("zone")}
          />
          Only ${t.name}</label
        >
        <label class="check"
          ><input
            type="radio"
            name="token-scope"
            checked=${f==="account"}
            onChange=${()=>c("account")}
          />
          Every zone of account ${t.account.name}</label
        >
      </fieldset>
      ${m?d`<p class="alert error" role="alert">${m}</p>`:null}
      <button type="submit" class="primary">Create token</button>
    </form>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Permissions</th>
            <th>Status</th>
            <th>Issued</th>
            <th><span class="visually-hidden">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${(n??[]).map(x=>d`<tr>
                <td>${x.name}</td>
                <td>${$o(x)}</td>
                <td>${x.status}</td>
                <td>
                  <time datetime=${x.issued_on}>${new Date(x.issued_on).toLocaleString()}</time>
                </td>
                <td>
                  <button
                    type="button"
                    class="danger"
                    onClick=${()=>v(x)}
                    aria-label=${`Revoke ${x.name}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>`)}
          ${n&&n.length===0?d`<tr>
                  <td colspan="5" class="empty">No tokens yet.</td>
                </tr>`:null}
        </tbody>
      </table>
    </div>
    ${$?d`<${ee} title=${`Revoke ${$.name}?`} onClose=${()=>v(null)}>
            <p>Requests with this token will be refused from now on. This cannot be undone.</p>
            <div class="actions">
              <button type="button" class="danger" onClick=${T}>Revoke token</button
              ><button type="button" onClick=${()=>v(null)}>Cancel</button>
            </div>
          <//>`:null}
  </section>`}var yo=[["records","DNS records"],["import","Import / export"],["settings","Settings"],["audit","Audit log"],["tokens","API tokens"],["query","Query"]];function xn(){let[t,e]=y(ke.token);return t?d`<${bo} onLogout=${()=>(ke.clear(),e(""))} />`:d`<${dn} onLogin=${n=>(ke.set(n),e(n))} />`}function bo({onLogout:t}){let[e,n]=y(null),[r,a]=y(null),[o,i]=y("records"),[s,u]=y("unknown"),[p,l]=y(null),[h,f]=y(0),[c,m]=y(!1),[g,b]=y(null),w=H(0),$=H(null),v=ne((E,R=!1)=>{l({message:E,error:R}),clearTimeout(w.current),w.current=setTimeout(()=>l(null),R?12e3:6e3)},[]),k=ne(E=>u(E.message),[]),S=ne(()=>f(E=>E+1),[]),T=async E=>{try{let{result:R}=await P("GET","/zones?per_page=1000&order=name");n(R),a(z=>R.find(q=>q.id===(E??z?.id))??R[0]??null)}catch(R){R.status===403&&R.errors[0]?.code===9109&&t(),b(R.message)}};D(()=>{T()},[]),D(()=>{r&&(u("unknown"),P("POST",`/zones/${r.id}/dns_records/batch`,{}).then(()=>u("edit")).catch(E=>u(E.forbidden?E.message:"edit")))},[r?.id]);let x=s!=="edit"?s==="unknown"?!0:s:null,N=E=>{a(e.find(R=>R.id===E)??null),$.current?.focus()};return d`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">edgedns</span>
      ${e&&e.length>0?d`<div class="field inline zone-pick">
              <label for="zone-select">Zone</label>
              <select
                id="zone-select"
                value=${r?.id??""}
                onChange=${E=>N(E.currentTarget.value)}
              >
                ${e.map(E=>d`<option value=${E.id}>${E.name}</option>`)}
              </select>
            </div>`:null}
      <button type="button" onClick=${()=>m(!0)}>Add zone</button>
      ${r?d`<${pn} zone=${r} version=${h} />`:null}
      <span class="spacer"></span>
      <a href="/client/v4/docs">API reference</a>
      <button type="button" onClick=${t}>Sign out</button>
    </header>
    ${r?d`<nav class="tabs" aria-label="Zone sections">
            ${yo.map(([E,R])=>d`<button type="button" aria-current=${o===E?"page":void 0} onClick=${()=>i(E)}>${R}</button>`)}
          </nav>`:null}
    <main id="main" ref=${$} tabindex="-1">
      ${g?d`<p class="alert error" role="alert">${g}</p>`:null}
      ${typeof x=="string"?d`<div class="alert warn" role="alert" data-testid="read-only">
              <strong>Read-only:</strong> this token may view ${r?.name??"this zone"} but not
              change it, so editing is hidden. (The API said: ${x})
            </div>`:null}
      ${e&&e.length===0?d`<p>No zones yet. <button type="button" onClick=${()=>m(!0)}>Add a zone</button></p>`:null}
      ${r?vo(o,{zone:r,readOnly:!!x,onChanged:S,onForbidden:k,notify:v,version:h}):null}
    </main>
    <div
      class=${`notice${p?" show":""}${p?.error?" error":""}`}
      role="status"
      aria-live="polite"
      data-testid="notice"
    >
      ${p?.message??""}
    </div>
    ${c?d`<${ko} onClose=${()=>m(!1)} onAdded=${E=>(m(!1),T(E.id),v(`Added zone ${E.name}.`))} />`:null}
  </div>`}function vo(t,e){switch(t){case"records":return d`<${gn} key=${e.zone.id} ...${e} />`;case"import":return d`<${un} key=${e.zone.id} ...${e} />`;case"settings":return d`<${bn} key=${e.zone.id} ...${e} />`;case"audit":return d`<${Jt} key=${e.zone.id} ...${e} />`;case"tokens":return d`<${kn} ...${e} />`;case"query":return d`<${fn} key=${e.zone.id} ...${e} />`}}function ko({onClose:t,onAdded:e}){let[n,r]=y(""),[a,o]=y(null);async function i(s){s.preventDefault();try{let{result:u}=await P("POST","/zones",{name:n.trim()});e(u)}catch(u){o(u.message)}}return d`<${ee} title="Add a zone" onClose=${t}>
    <form onSubmit=${i}>
      <div class="field">
        <label for="zone-name">Zone name</label>
        <input
          id="zone-name"
          required
          placeholder="example.org"
          value=${n}
          onInput=${s=>r(s.currentTarget.value)}
          aria-invalid=${a?"true":void 0}
          aria-describedby=${a?"zone-error":void 0}
        />
        ${a?d`<small id="zone-error" class="error" role="alert">${a}</small>`:null}
      </div>
      <div class="actions">
        <button type="submit" class="primary">Add zone</button
        ><button type="button" onClick=${t}>Cancel</button>
      </div>
    </form>
  <//>`}Et(d`<${xn} />`,document.getElementById("app"));
