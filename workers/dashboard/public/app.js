// Built from workers/dashboard/src by workers/dashboard/build.mjs — do not edit.
var R,Ct,io,W,Ve,ke,Et,ye,At,Ze,He,lo,ue=Symbol.for("pv"),xe={},Te=[],co=/^m(i|n|o|s|text|space)$/,je=Array.isArray,Ge=Te.slice,J=Object.assign;function Q(e){e&&e.parentNode&&e.remove()}function Pt(e,t,n){var o,s,r,a={},i=arguments.length;for(r in t)r=="key"?o=t[r]:r=="ref"&&typeof e!="function"?s=t[r]:a[r]=t[r];return i>2&&(a.children=i>3?Ge.call(arguments,2):n),de(e,a,o,s,null)}function de(e,t,n,o,s){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:ue,__v:s||++Ct,__i:-1,__u:0};return!s&&R.vnode&&R.vnode(r),r}function we(e){return e.children}function be(e,t){this.props=e,this.context=t,this.__g=0}function K(e,t){if(t==null)return e.__&&K(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!="function"||e.props.__P?null:K(e)}function uo(e){var t,n=e.__v,o=n.__e,s=[],r=[],a=e.__P;a&&((t=J({constructor:ue},n)).__v=n.__v+1,R.vnode&&R.vnode(t),Xe(a,t,n,e.__n,a.namespaceURI,32&n.__u?[o]:null,s,o||K(n),32&n.__u,r),t.__v=n.__v,t.__.__k[t.__i]=t,Ft(s,t,r),n.__=n.__e=null,t.__e!=o&&Nt(t))}function Nt(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Nt(e)}function wt(e){(8&e.__g||(e.__g|=8,W.push(e),ke++))&&Ve==R.debounceRendering||((Ve=R.debounceRendering)||queueMicrotask)(Lt)}function Lt(){try{for(var e,t=1;W.length;)W.length>t&&W.sort(Et),e=W.shift(),t=W.length,8&e.__g&&uo(e)}finally{(ke=W.length)&&(Ve||queueMicrotask)(Lt)}}function Rt(e,t,n,o,s,r,a,i,u,p,d){var _,f,l,$,g,y,S=o.__k||Te,h=t.length;for(u=po(n,t,S,u,h),_=0;_<h;_++)(l=n.__k[_])!=null&&(f=~l.__i&&S[l.__i]||xe,l.__i=_,y=Xe(e,l,f,s,r,a,i,u,p,d),$=l.__e,(f.ref!=l.ref||8&f.__u)&&(f.ref&&Ye(f.ref,null,l,f),l.ref&&d.push(l.ref,l.__c||$,l)),g=g||$,4&l.__u?(u=It(l,u,e,!f.__v),f.__e&&(f.__e=null)):typeof l.type=="function"&&y!==void 0?u=y:$&&(u=$.nextSibling),l.__u&=-21);return n.__e=g,u}function po(e,t,n,o,s){var r,a,i,u,p,d,_,f,l,$=n.length,g=$,y=0,S=0,h=e.__k=Array(s);for(r=0;r<s;r++)(a=t[r])!=null&&typeof a!="boolean"&&typeof a!="function"?(typeof a!="object"||a.constructor===String?a=h[r]=de(null,a):je(a)?a=h[r]=de(we,{children:a}):a.constructor===ue&&a.__b?a=h[r]=de(a.type,a.props,a.key,a.ref,a.__v):h[r]=a,u=r+y,a.__=e,a.__b=e.__b+1,i=null,~(p=a.__i=fo(a,n,u,g))&&(g--,(i=n[p])&&(i.__u|=2)),i&&i.__v?(a.__u|=16,p==u-1?y--:p==u+1?y++:p!=u&&(p>u?y--:y++,S=1)):(~p||(s>$?y--:s<$&&y++),typeof a.type!="function"&&(a.__u|=4))):h[r]=null;if(S){for(d=[],_=[],r=0;r<s;r++)if((a=h[r])&&16&a.__u){for(y=0,f=d.length;y<f;)d[l=y+f>>1]<a.__i?y=l+1:f=l;d[y]=a.__i,_[r]=y+1}for(y=d.length;r--;)_[r]&&(_[r]==y?y--:h[r].__u|=4)}if(g)for(r=0;r<$;r++)!(i=n[r])||2&i.__u||(i.__e==o&&(o=K(i)),We(i,i));return o}function It(e,t,n,o){var s,r,a,i;if(typeof e.type=="function"){if(e.props.__P)return t;if(s=e.__k)for(r=0;r<s.length;r++)s[r]&&(s[r].__=e,t=It(s[r],t,n,!1));return t}for(t&&!t.parentNode&&(t=K(e))&&!t.parentNode&&(t=null),a=e.__e,i=t;i&&i.nodeType==8;)i=i.nextSibling;for(a!=i&&(!o&&n.moveBefore&&a.parentNode?n.moveBefore(a,t):n.insertBefore(a,t||null)),t=a;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function fo(e,t,n,o){var s,r=e.key,a=e.type,i=t[n],u=i&&!(2&i.__u);if(i===null&&r==null||u&&r==i.key&&a==i.type)return n;if(o>(u?1:0)){for(s=n-1;s>=0;s--)if((i=t[s])&&!(2&i.__u)&&r==i.key&&a==i.type)return s;for(s=n+1;s<t.length;s++)if((i=t[s])&&!(2&i.__u)&&r==i.key&&a==i.type)return s}return-1}function St(e,t,n){n==null&&(n=""),t[0]=="-"?e.setProperty(t,n):e[t]=n}function ge(e,t,n,o,s){var r,a;if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||St(e.style,t);if(n)for(t in n)o&&n[t]==o[t]||St(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")typeof n!="function"&&(n=null),typeof o!="function"&&(o=null),(e.__e||(e.__e={}))[t]=n,n&&o||(a=He[t]||(He[t]=mo(t)),(e.__a||(e.__a={}))[t]=Ze,r=t!=(t=t.replace(At,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),n?e.addEventListener(t,a,r):e.removeEventListener(t,a,r));else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n)}}function mo(e){return function(t){var n=this.__e;if(n){if(n=n[e],t[ye]==null)t[ye]=Ze++;else if(t[ye]<this.__a[e])return;return n(R.event?R.event(t):t)}}}function Xe(e,t,n,o,s,r,a,i,u,p){var d,_,f,l,$,g,y,S,h,v,w,T,k,x,N,j,E,L,z=t.type;if(t.constructor!==ue)return null;128&n.__u&&(u=32&n.__u,d=n.__c.__z)&&(t.__u|=u,_=r=[],d.nodeType==8?i=ve(d,r):r.push(d),i=r[0]||i),(d=R.__b)&&d(t);e:if(typeof z=="function"){f=a.length;try{if(S=t.props,h=(d=z.prototype)&&d.render,v=(d=z.contextType)&&o[d.__c],w=d?v?v.props.value:d.__:o,(l=n.__c)?(t.__c=l,2&l.__g&&(l.__g|=1)):(h?t.__c=l=new z(S,w):(t.__c=l=new be(S,w),l.constructor=z,l.render=_o),v&&v.sub(l),l.state||(l.state={}),l.__n=o,l.__g|=8,l.__h=[],l.__k=[]),h&&(l.__s||(l.__s=l.state),z.getDerivedStateFromProps&&(l.__s==l.state&&(l.__s=J({},l.__s)),J(l.__s,z.getDerivedStateFromProps(S,l.__s)))),$=l.props,g=l.state,l.__v=t,n.__c){if(S!==$&&h&&!z.getDerivedStateFromProps&&l.componentWillReceiveProps&&l.componentWillReceiveProps(S,w),t.__v==n.__v&&!(8&l.__g)||!(4&l.__g)&&l.shouldComponentUpdate&&l.shouldComponentUpdate(S,l.__s,w)===!1){t.__v!=n.__v&&(l.props=S,l.state=l.__s,l.__g&=-9),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(M){M&&(M.__=t)}),Te.push.apply(l.__h,l.__k),l.__k=[],l.__h.length&&a.push(l),i=K(n);break e}l.componentWillUpdate&&l.componentWillUpdate(S,l.__s,w),h&&l.componentDidUpdate&&l.__h.push(function(){l.componentDidUpdate($,g,y)})}else h&&!z.getDerivedStateFromProps&&l.componentWillMount&&l.componentWillMount(),h&&l.componentDidMount&&l.__h.push(l.componentDidMount);l.context=w,l.props=S,l.__P=e,l.__g&=-5,T=R.__r,k=h?25:0;do l.__g&=-9,T&&T(t),d=l.render(l.props,l.state=l.__s,l.context);while(8&l.__g&&++k<25);h&&(Te.push.apply(l.__h,l.__k),l.__k=[]),l.state=l.__s,l.getChildContext&&(o=J({},o,l.getChildContext())),h&&n.__c&&l.getSnapshotBeforeUpdate&&(y=l.getSnapshotBeforeUpdate($,g)),x=d&&d.type===we&&d.key==null?d.props.children:d,S.__P&&(d=i,s=(e=S.__P).namespaceURI,u=r=null,n.props&&n.props.__P!=e&&(n.__k.some(function(M){M&&We(M,M)}),n.__k=null),i=n.__k?K(n,0):null),i=Rt(e,je(x)?x:[x],t,n,o,s,r,a,i,u,p),S.__P&&(t.__e=null,i=d),t.__u&=-161,_&&_.some(Q),l.__h.length&&a.push(l),1&l.__g&&(l.__g&=-4)}catch(M){if(a.length=f,t.__v=null,u||r)if(M&&M.then){if(t.__u|=128|u,r){for(~(E=r.indexOf(i||void 0))||(E=r.length);(L=r[E-1])&&L.nodeType==8;)E--;for(;E<r.length;E++)if(L=r[E])if(r[E]=null,N){if(L==j)break}else{if(L.nodeType!=8)break;L.data.startsWith("$s")&&(j=ve(N=L))}}if(!N){for(;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;N=i}(d=ve(N=t.__c.__z||(t.__c.__z=N)))?(t.__e=N,i=d):t.__e=i,i=i&&i.nextSibling}else r&&r.some(Q);else t.__e=n.__e;t.__k||(t.__k=n.__k||[]),M&&M.then||Ot(t),R.__e(M,t,n)}}else i=t.__e=ho(n.__e,t,n,o,s,r,a,u,p,e);return(d=R.diffed)&&d(t),i}function ve(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))n++;else if(e.data.startsWith("/$s")&&!--n)return e}t&&t.push(e)}}function Ot(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Ot))}function Ft(e,t,n){for(var o=0;o<n.length;)Ye(n[o++],n[o++],n[o++]);R.__c&&R.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(r){r.call(s)})}catch(r){R.__e(r,s.__v)}})}function ho(e,t,n,o,s,r,a,i,u,p){var d,_,f,l,$,g,y,S,h=n.props||xe,v=t.props,w=t.type;if(w=="svg"?s="http://www.w3.org/2000/svg":w=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),r){for(d=0;d<r.length;d++)if(($=r[d])&&(w?$.localName==w:$.nodeType==3)){e=$,r[d]=null;break}}if(!e){if(S=p.ownerDocument||document,!w)return S.createTextNode(v);e=S.createElementNS(s,w,v.is?v:p),i&&(R.__m&&R.__m(t,r),i=!1),r=null}if(w){if(p=w=="template"&&e.content||e,r=w=="textarea"&&v.defaultValue!=null?null:r&&Ge.call(p.childNodes),!i&&r)for(h={},d=0;d<e.attributes.length;d++)h[($=e.attributes[d]).name]=$.value;for(d in h)$=h[d],d=="dangerouslySetInnerHTML"?f=$:d=="children"||d in v||d=="value"&&"defaultValue"in v||d=="checked"&&"defaultChecked"in v||ge(e,d,null,$,s);for(d in v)$=v[d],d=="children"?l=$:d=="dangerouslySetInnerHTML"?_=$:d=="value"?g=$:d=="checked"?y=$:i&&typeof $!="function"||h[d]===$||ge(e,d,$,h[d],s);_?(i||f&&(_.__html==f.__html||_.__html==e.innerHTML)||(e.innerHTML=_.__html),t.__k=[]):(f&&(e.textContent=""),(w=="foreignObject"||s=="http://www.w3.org/1998/Math/MathML"&&co.test(w))&&(s="http://www.w3.org/1999/xhtml"),Rt(p,je(l)?l:[l],t,n,o,s,r,a,r?r[0]:n.__k&&K(n,0),i,u),r&&r.some(Q)),i&&w!="textarea"||(d="value",w=="progress"&&g==null?e.removeAttribute(d):g==null||g===e[d]&&(w!="progress"||g)||ge(e,d,g,h[d],s),d="checked",y!=null&&y!=e[d]&&ge(e,d,y,h[d],s))}else h===v||i&&e.data==v||(e.data=v);return e}function Ye(e,t,n,o){try{typeof e=="function"?t?t.__x=e(t)||1:o&&(o=o.__c||o.__e)&&(t=o.__x)&&(o.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(s){R.__e(s,n)}}function We(e,t,n){var o,s,r,a;if(R.unmount&&R.unmount(e),!(o=e.ref)||o.current&&o.current!=e.__e||Ye(o,null,t,e),o=e.__c){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(i){R.__e(i,t)}o.__P=o.__n=null}if(o=e.__k)for(a=0;a<o.length;a++)o[a]&&We(o[a],t,typeof e.type!="function"||n&&!e.props.__P);!n&&(o=e.__c)&&(o=o.__z)&&(s=ve(o,r=[]))&&(o==e.__e&&r.some(Q),Q(s),Q(o)),n||Q(e.__e),e.__e=e.__c=e.__=null}function _o(e,t,n){return this.constructor(e,n)}function Dt(e,t){var n,o,s,r;R.__&&R.__(e,t),t.nodeType==9&&(t=t.documentElement),o=(n=e&&32&e.__u)?null:t.__k,t.__k=de(we,{children:[e]}),s=[],r=[],Xe(t,t.__k,o||xe,xe,t.namespaceURI,o?null:t.firstChild?Ge.call(t.childNodes):null,s,o?o.__e:t.firstChild,n,r),Ft(s,t.__k,r),t.__k.props.children=null}R={__e:function(e,t,n,o){for(var s,r,a;t=t.__;)if((s=t.__c)&&!(1&s.__g)){s.__g|=4;try{if((a=(r=s.constructor)&&r.getDerivedStateFromError)&&s.setState(r.getDerivedStateFromError(e)),s.componentDidCatch&&(s.componentDidCatch(e,o||{}),a=1),a&&8&s.__g)return void(s.__g|=2)}catch(i){e=i}}throw ke=0,e}},Ct=0,io=function(e){return e!=null&&e.constructor===ue},be.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=J({},this.state)),typeof e=="function"&&(e=e(J({},n),this.props)),e&&(J(n,e),this.__v&&(t&&this.__k.push(t),wt(this)))},be.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),wt(this))},be.prototype.render=we,W=[],ke=0,Et=function(e,t){return e.__v.__b-t.__v.__b},ye=Symbol(),At=/(PointerCapture)$|Capture$/i,Ze=0,He={},lo=0;var oe,F,Ke,Mt,Qe=Object.is,fe=0,Gt=[],Je=[],O=R,zt=O.__b,qt=O.__r,Ut=O.diffed,Bt=O.__c,Vt=O.unmount,Ht=O.__;function Se(e,t){O.__h&&O.__h(F,e,fe||t),fe=0;var n=F.__H||(F.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function m(e){return fe=1,$o(Yt,e)}function $o(e,t,n){var o=Se(oe++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Yt(void 0,t),function(r){var a=(o.__N||o.__)[0],i=o.t(a,r);Qe(a,i)||(o.__N=[i,o.__[1]],o.__c.setState({}))}],o.__c=F,!F.__f)){F.__f=!0;var s=F.shouldComponentUpdate;F.shouldComponentUpdate=function(r,a,i){var u=this.__H;if(!u)return!0;var p=!1,d=this.props!=r;if(u.__.some(function(f){f.__N&&(p=!0,Qe(f.__[0],f.__N[0])||(d=!0))}),s){var _=s.call(this,r,a,i);return p?_||d:_}return!p||d}}return o.__}function I(e,t){var n=Se(oe++,3);!O.__s&&tt(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,F.__H.__h.push(n))}function re(e,t){var n=Se(oe++,4);!O.__s&&tt(n.__H,t)&&(n.__P=!1,n.__=e,n.u=t,F.__h.push(n))}function q(e){return fe=5,Xt(function(){return{current:e}},[])}function Xt(e,t){var n=Se(oe++,7);return tt(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function se(e,t){return fe=8,Xt(function(){return e},t)}function go(){var e;do{for(;e=Je.shift();)try{pe(e)}catch(n){O.__e(n,{__:(e=e.__P)&&e.__v})}for(;e=Gt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(pe),t.__h.some(et),t.__h=[]}catch(n){t.__h=[],O.__e(n,e.__v)}}}while(Je.length)}O.__b=function(e){F=null,zt&&zt(e)},O.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),Ht&&Ht(e,t)},O.__r=function(e){qt&&qt(e),oe=0;var t=(F=e.__c).__H;t&&(Ke==F?F.__h=[]:(t.__h.some(pe),t.__h.some(et),oe=0),t.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),Ke=F},O.diffed=function(e){Ut&&Ut(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&jt(Gt.push(t)),t.__H.__.some(function(n){n.u&&(n.__H=n.u)})),Ke=F=null},O.__c=function(e,t){t.some(function(n){try{n.__h.some(pe),n.__h=n.__h.filter(function(o){return!o.__||et(o)})}catch(o){n.__h=[function(){throw o}]}}),Bt&&Bt(e,t)},O.unmount=function(e){Vt&&Vt(e);var t,n,o=e.__c;o&&o.__H&&(o.__H.__.some(function(s){try{if(s.__P&&s.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}s.__P=n,jt(Je.push(s))}else pe(s)}catch(r){t=r}}),o.__H=void 0,t&&O.__e(t,o.__v))};var Zt=typeof requestAnimationFrame=="function";function yo(e){var t,n=function(){clearTimeout(o),Zt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);Zt&&(t=requestAnimationFrame(n))}function jt(e){e!=1&&Mt==O.requestAnimationFrame||((Mt=O.requestAnimationFrame)||yo)(go)}function pe(e){var t=F,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),F=t}function et(e){var t=F;e.__c=e.__(),F=t}function tt(e,t){return!e||e.length!=t.length||t.some(function(n,o){return!Qe(n,e[o])})}function Yt(e,t){return typeof t=="function"?t(e):t}var bo="_edgedns-verify";function Wt(e){if(!e||e.status!=="pending")return null;let t=e.vanity_name_servers??[];return{txtName:`${bo}.${e.name}`,txtValue:e.verification_key,nameServers:t.length>0?t:e.name_servers??[]}}function Kt(e){let t=(e.messages??[]).find(n=>n.code===10005);return t?{activated:!1,message:t.message}:{activated:!0,message:null}}var nt="edgedns.token",rt="/client/v4",me=sessionStorage.getItem(nt)??"",Ce={get token(){return me},set(e){me=e,sessionStorage.setItem(nt,e)},clear(){me="",sessionStorage.removeItem(nt)}},ot=class extends Error{constructor(t,n){let o=n[0]??{code:t,message:"request failed"};super(`${o.message} (code ${o.code})`),this.status=t,this.errors=n}get forbidden(){return this.status===403}};async function Qt(e){let t=await e.json().catch(()=>null);if(t&&t.success)return t;throw new ot(e.status,t?.errors?.length?t.errors:[{code:e.status,message:e.statusText||"request failed"}])}async function C(e,t,n,o){let s={authorization:`Bearer ${o??me}`},r;n instanceof FormData?r=n:n!==void 0&&(s["content-type"]="application/json",r=JSON.stringify(n));let a=await fetch(`${rt}${t}`,{method:e,headers:s,body:r});return Qt(a)}async function Jt(e){let t=await fetch(`${rt}${e}`,{headers:{authorization:`Bearer ${me}`}});return t.ok||await Qt(t),t.text()}async function en(){try{let e=await fetch(`${rt}/local_dev`,{cache:"no-store"});return e.ok?(await e.json()).result?.dev_token??null:null}catch{return null}}var nn=function(e,t,n,o){var s;t[0]=0;for(var r=1;r<t.length;r++){var a=t[r++],i=t[r]?(t[0]|=a?1:2,n[t[r++]]):t[++r];a===3?o[0]=i:a===4?o[1]=Object.assign(o[1]||{},i):a===5?(o[1]=o[1]||{})[t[++r]]=i:a===6?o[1][t[++r]]+=i+"":a?(s=e.apply(i,nn(e,i,n,["",null])),o.push(s),i[0]?t[0]|=2:(t[r-2]=0,t[r]=s)):o.push(i)}return o},tn=new Map;function on(e){var t=tn.get(this);return t||(t=new Map,tn.set(this,t)),(t=nn(this,t.get(e)||(t.set(e,t=(function(n){for(var o,s,r=1,a="",i="",u=[0],p=function(f){r===1&&(f||(a=a.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,f,a):r===3&&(f||a)?(u.push(3,f,a),r=2):r===2&&a==="..."&&f?u.push(4,f,0):r===2&&a&&!f?u.push(5,0,!0,a):r>=5&&((a||!f&&r===5)&&(u.push(r,0,a,s),r=6),f&&(u.push(r,f,0,s),r=6)),a=""},d=0;d<n.length;d++){d&&(r===1&&p(),p(d));for(var _=0;_<n[d].length;_++)o=n[d][_],r===1?o==="<"?(p(),u=[u],r=3):a+=o:r===4?a==="--"&&o===">"?(r=1,a=""):a=o+a[0]:i?o===i?i="":a+=o:o==='"'||o==="'"?i=o:o===">"?(p(),r=1):r&&(o==="="?(r=5,s=a,a=""):o==="/"&&(r<5||n[d][_+1]===">")?(p(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(p(),r=2):a+=o),r===3&&a==="!--"&&(r=4,u=u[0])}return p(),u})(e)),t),arguments,[])).length>1?t:t[0]}var c=on.bind(Pt);function rn({zone:e,onActivated:t}){let[n,o]=m(!1),[s,r]=m(null),a=Wt(e);if(!a)return null;async function i(){o(!0),r(null);try{let u=Kt(await C("PUT",`/zones/${e.id}/activation_check`));u.activated?t():r({error:!1,message:u.message})}catch(u){r({error:!0,message:u.message})}finally{o(!1)}}return c`<section class="alert warn pending-zone" aria-labelledby="pending-heading" data-testid="pending-zone">
    <h2 id="pending-heading">${e.name} is pending</h2>
    <p>It is not served until you prove that you control the name. Publish this TXT record where the domain is served today, then check:</p>
    <dl>
      <dt>Name</dt><dd><code data-testid="txt-name">${a.txtName}</code></dd>
      <dt>Type</dt><dd><code>TXT</code></dd>
      <dt>Value</dt><dd><code data-testid="txt-value">${a.txtValue}</code></dd>
    </dl>
    <p>Or delegate ${e.name} to ${a.nameServers.join(", ")} (proves it only while no other account has the name pending).</p>
    <button type="button" class="primary" disabled=${n} onClick=${i}>${n?"Checking\u2026":"Check now"}</button>
    ${s?c`<p role="status" class=${s.error?"error":void 0} data-testid="activation-result">${s.message}</p>`:null}
  </section>`}var Ee=[{name:"A",code:1,api:!0,rdata:"a"},{name:"NS",code:2,api:!0,rdata:"name"},{name:"CNAME",code:5,api:!0,rdata:"name"},{name:"SOA",code:6,api:!1,rdata:"soa"},{name:"PTR",code:12,api:!0,rdata:"name"},{name:"HINFO",code:13,api:!1,rdata:"hinfo"},{name:"MX",code:15,api:!0,rdata:"mx"},{name:"TXT",code:16,api:!0,rdata:"txt"},{name:"RP",code:17,api:!1,rdata:"opaque"},{name:"AFSDB",code:18,api:!1,rdata:"opaque"},{name:"AAAA",code:28,api:!0,rdata:"aaaa"},{name:"LOC",code:29,api:!0,rdata:"loc"},{name:"SRV",code:33,api:!0,rdata:"srv"},{name:"NAPTR",code:35,api:!0,rdata:"naptr"},{name:"KX",code:36,api:!1,rdata:"opaque"},{name:"CERT",code:37,api:!0,rdata:"cert"},{name:"DNAME",code:39,api:!1,rdata:"name-uncompressed"},{name:"OPT",code:41,api:!1,rdata:"meta"},{name:"APL",code:42,api:!1,rdata:"opaque"},{name:"DS",code:43,api:!0,rdata:"ds"},{name:"SSHFP",code:44,api:!0,rdata:"sshfp"},{name:"IPSECKEY",code:45,api:!1,rdata:"opaque"},{name:"RRSIG",code:46,api:!1,rdata:"opaque"},{name:"NSEC",code:47,api:!1,rdata:"opaque"},{name:"DNSKEY",code:48,api:!0,rdata:"dnskey"},{name:"DHCID",code:49,api:!1,rdata:"opaque"},{name:"NSEC3",code:50,api:!1,rdata:"opaque"},{name:"NSEC3PARAM",code:51,api:!1,rdata:"opaque"},{name:"TLSA",code:52,api:!0,rdata:"tlsa"},{name:"SMIMEA",code:53,api:!0,rdata:"tlsa"},{name:"HIP",code:55,api:!1,rdata:"opaque"},{name:"CDS",code:59,api:!1,rdata:"ds"},{name:"CDNSKEY",code:60,api:!1,rdata:"dnskey"},{name:"OPENPGPKEY",code:61,api:!0,rdata:"openpgpkey"},{name:"CSYNC",code:62,api:!1,rdata:"opaque"},{name:"ZONEMD",code:63,api:!1,rdata:"opaque"},{name:"SVCB",code:64,api:!0,rdata:"svcb"},{name:"HTTPS",code:65,api:!0,rdata:"svcb"},{name:"SPF",code:99,api:!1,rdata:"txt"},{name:"NXNAME",code:128,api:!1,rdata:"meta"},{name:"TKEY",code:249,api:!1,rdata:"meta"},{name:"TSIG",code:250,api:!1,rdata:"meta"},{name:"IXFR",code:251,api:!1,rdata:"meta"},{name:"AXFR",code:252,api:!1,rdata:"meta"},{name:"MAILB",code:253,api:!1,rdata:"meta"},{name:"MAILA",code:254,api:!1,rdata:"meta"},{name:"ANY",code:255,api:!1,rdata:"meta"},{name:"URI",code:256,api:!0,rdata:"uri"},{name:"CAA",code:257,api:!0,rdata:"caa"}],kr=Object.freeze(Object.fromEntries(Ee.map(e=>[e.name,e.code]))),sn=Object.freeze(Ee.filter(e=>e.api).map(e=>e.name).sort());var xr=new Map(Ee.map(e=>[e.code,e])),Tr=new Map(Ee.map(e=>[e.name,e]));function st(e){if(!e.endsWith("."))return!1;let t=0;for(let n=e.length-2;n>=0&&e[n]==="\\";n--)t++;return t%2===0}var Pe=sn,at=new Set(["A","AAAA","CNAME"]),D=(e,t,n="")=>({key:e,label:t,kind:"text",hint:n}),ae=(e,t,n="")=>({key:e,label:t,kind:"textarea",hint:n}),H=(e,t,n,o,s="")=>({key:e,label:t,kind:"number",min:n,max:o,hint:s}),Ae=(e,t,n)=>({key:e,label:t,kind:"select",options:n}),Z=(e,t,n)=>H(e,t,0,255,n),U=(e,t,n)=>H(e,t,0,65535,n),vo=[H("data.lat_degrees","Latitude degrees",0,90),H("data.lat_minutes","Latitude minutes",0,59),H("data.lat_seconds","Latitude seconds",0,59.999),Ae("data.lat_direction","Latitude direction",["N","S"]),H("data.long_degrees","Longitude degrees",0,180),H("data.long_minutes","Longitude minutes",0,59),H("data.long_seconds","Longitude seconds",0,59.999),Ae("data.long_direction","Longitude direction",["E","W"]),H("data.altitude","Altitude (m)",-1e5,4284967295e-2),H("data.size","Size (m)",0,9e7),H("data.precision_horz","Horizontal precision (m)",0,9e7),H("data.precision_vert","Vertical precision (m)",0,9e7)],an=[Z("data.usage","Usage","0\u20133 (3 = DANE-EE)"),Z("data.selector","Selector","0 = full certificate, 1 = public key"),Z("data.matching_type","Matching type","0 = exact, 1 = SHA-256, 2 = SHA-512"),ae("data.certificate","Certificate association data","hex")],ko={A:[D("content","IPv4 address","e.g. 192.0.2.1")],AAAA:[D("content","IPv6 address","e.g. 2001:db8::1")],CNAME:[D("content","Target","a host name")],NS:[D("content","Name server")],PTR:[D("content","Domain name")],TXT:[ae("content","Text")],OPENPGPKEY:[ae("content","Public key","base64")],MX:[U("priority","Priority","lower is preferred"),D("content","Mail server")],URI:[U("priority","Priority"),U("data.weight","Weight"),D("data.target","Target URI")],SRV:[D("srv.service","Service","e.g. _sip"),Ae("srv.protocol","Protocol",["_tcp","_udp","_tls"]),U("data.priority","Priority"),U("data.weight","Weight"),U("data.port","Port"),D("data.target","Target")],CAA:[Z("data.flags","Flags","0, or 128 = critical"),Ae("data.tag","Tag",["issue","issuewild","iodef","issuemail","issuevmc"]),D("data.value","Value","e.g. letsencrypt.org")],HTTPS:[U("data.priority","Priority","0 = alias mode"),D("data.target","Target",". = the owner name"),D("data.value","Parameters",'e.g. alpn="h2,h3" ipv4hint=192.0.2.1')],SVCB:[U("data.priority","Priority","0 = alias mode"),D("data.target","Target",". = the owner name"),D("data.value","Parameters",'e.g. alpn="h2" port=8443')],TLSA:an,SMIMEA:an,SSHFP:[Z("data.algorithm","Algorithm","1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519"),Z("data.type","Fingerprint type","1 SHA-1, 2 SHA-256"),D("data.fingerprint","Fingerprint","hex")],DS:[U("data.key_tag","Key tag"),Z("data.algorithm","Algorithm"),Z("data.digest_type","Digest type","2 = SHA-256"),ae("data.digest","Digest","hex")],DNSKEY:[U("data.flags","Flags","256 ZSK, 257 KSK"),Z("data.protocol","Protocol","always 3"),Z("data.algorithm","Algorithm"),ae("data.public_key","Public key","base64")],CERT:[U("data.type","Certificate type"),U("data.key_tag","Key tag"),Z("data.algorithm","Algorithm"),ae("data.certificate","Certificate","base64")],NAPTR:[U("data.order","Order"),U("data.preference","Preference"),D("data.flags","Flags","e.g. U"),D("data.service","Service","e.g. E2U+sip"),D("data.regex","Regular expression"),D("data.replacement","Replacement",". when a regex is used")],LOC:vo},xo={"srv.protocol":"_tcp","data.tag":"issue","data.lat_direction":"N","data.long_direction":"E","data.flags":""};function ee(e){return ko[e]??[D("content","Content")]}function he(e,t){return e===t?"@":e.endsWith(`.${t}`)?e.slice(0,-t.length-1):e}function Ne(e){let t={type:e,name:"",ttl:"1",proxied:!1,comment:""};for(let n of ee(e))t[n.key]=xo[n.key]??(n.kind==="select"?n.options[0]:"");return e==="CAA"&&(t["data.flags"]="0"),t}function ln(e,t){let n={...Ne(e.type),name:he(e.name,t),ttl:String(e.ttl),proxied:e.proxied,comment:e.comment??""};for(let o of ee(e.type))if(o.key==="content")n.content=e.content;else if(o.key==="priority")n.priority=e.priority===void 0?"":String(e.priority);else if(o.key.startsWith("data.")){let s=e.data?.[o.key.slice(5)];n[o.key]=s==null?"":String(s)}if(e.type==="SRV"){let[o="",s="_tcp",...r]=n.name.split(".");n["srv.service"]=o,n["srv.protocol"]=s,n.name=r.length===0?"@":r.join(".")}return n}function To(e,t){if(e.kind!=="number")return t;if(t==="")return;let n=Number(t);return Number.isFinite(n)?n:t}function cn(e){let t=e.type,n={type:t,name:e.name.trim()||"@",ttl:Number(e.ttl)};at.has(t)&&(n.proxied=!!e.proxied),e.comment?.trim()&&(n.comment=e.comment.trim());let o={},s=!1;for(let r of ee(t)){let a=To(r,String(e[r.key]??"").trim());r.key==="content"?n.content=a:r.key==="priority"?n.priority=a:r.key.startsWith("data.")&&(s=!0,a!==void 0&&a!==""&&(o[r.key.slice(5)]=a))}if(t==="SRV"){let r=n.name==="@"?"":`.${n.name}`;n.name=`${e["srv.service"].trim()}.${e["srv.protocol"]}${r}`}return s&&(n.data=o),n}function G(e){return`${e.type} ${e.name} ${it(e)?`${e.priority} `:""}${e.content}`}function it(e){return e.priority!==void 0&&(e.type==="MX"||e.type==="URI"||e.type==="SRV")}var wo=0,So=e=>`${e}-${++wo}`;function B({field:e,value:t,error:n,onInput:o,disabled:s,idPrefix:r="f"}){let a=q(So(r)).current,i=`${a}-hint`,u=`${a}-err`,p=[e.hint?i:"",n?u:""].filter(Boolean).join(" ")||void 0,d={id:a,name:e.key,disabled:s,"aria-invalid":n?"true":void 0,"aria-describedby":p},_=l=>o(e.key,l.currentTarget.value),f;if(e.kind==="select")f=c`<select ...${d} value=${t} onChange=${_}>${e.options.map(l=>typeof l=="string"?c`<option value=${l}>${l}</option>`:c`<option value=${l.value}>${l.label}</option>`)}</select>`;else if(e.kind==="textarea")f=c`<textarea ...${d} rows="3" value=${t} onInput=${_}></textarea>`;else{let l=e.kind==="number";f=c`<input ...${d} type=${l?"number":"text"} inputmode=${l?"decimal":void 0} step=${l?"any":void 0} min=${e.min} max=${e.max} value=${t} onInput=${_} autocomplete="off" spellcheck="false" />`}return c`<div class=${`field${n?" has-error":""}`} data-field=${e.key}>
    <label for=${a}>${e.label}</label>
    ${f}
    ${e.hint?c`<small id=${i} class="hint">${e.hint}</small>`:null}
    ${n?c`<small id=${u} class="error" role="alert">${n}</small>`:null}
  </div>`}function V({title:e,onClose:t,children:n,wide:o}){let s=q(null);return re(()=>{let r=document.activeElement,a=s.current;return a.showModal(),a.querySelector("[autofocus], input, select, textarea, button")?.focus(),()=>{a.open&&a.close(),r instanceof HTMLElement&&r.focus()}},[]),c`<dialog ref=${s} class=${o?"wide":""} aria-labelledby="modal-title" onCancel=${r=>(r.preventDefault(),t())}>
    <h2 id="modal-title">${e}</h2>
    ${n}
  </dialog>`}function Le({info:e,onPage:t,label:n}){if(!e)return null;let o=Math.max(1,e.total_pages??1);return c`<nav class="pager" aria-label=${n}>
    <button type="button" onClick=${()=>t(1)} disabled=${e.page<=1} aria-label="First page">«</button>
    <button type="button" onClick=${()=>t(e.page-1)} disabled=${e.page<=1}>‹ Previous</button>
    <span class="page-info" aria-live="polite">Page ${e.page.toLocaleString("en")} of ${o.toLocaleString("en")} · ${e.total_count.toLocaleString("en")} total</span>
    <button type="button" onClick=${()=>t(e.page+1)} disabled=${e.page>=o}>Next ›</button>
    <button type="button" onClick=${()=>t(o)} disabled=${e.page>=o} aria-label="Last page">»</button>
  </nav>`}function dn({messages:e}){return!e||e.length===0?null:c`<div class="alert error" role="alert"><ul>${e.map(t=>c`<li>${t}</li>`)}</ul></div>`}var un=e=>e?`${G(e)} (TTL ${e.ttl===1?"auto":e.ttl}${e.proxied?", proxied":""})`:"\u2014";function pn({zone:e,version:t}){let[n,o]=m(1),[s,r]=m(null),[a,i]=m(null),[u,p]=m(()=>new Map([["dev","local dev token"]]));return I(()=>{C("GET","/user/tokens").then(({result:d})=>p(_=>new Map([..._,...d.map(f=>[f.id,f.name])]))).catch(()=>{})},[]),I(()=>{C("GET",`/zones/${e.id}/dns_records/audit?page=${n}&per_page=25`).then(({result:d,result_info:_})=>(r({rows:d,info:_}),i(null))).catch(d=>i(d.message))},[e.id,n,t]),c`<section aria-labelledby="audit-heading">
    <h2 id="audit-heading">Audit log</h2>
    ${a?c`<p class="alert error" role="alert">${a}</p>`:null}
    ${s?c`<div class="table-wrap"><table class="audit">
          <thead><tr><th>Seq</th><th>When</th><th>Token</th><th>Action</th><th>Before</th><th>After</th></tr></thead>
          <tbody>
            ${s.rows.length===0?c`<tr><td colspan="6" class="empty">No changes yet.</td></tr>`:null}
            ${s.rows.map(d=>c`<tr>
                <td>${d.seq}</td>
                <td><time datetime=${d.when}>${new Date(d.when).toLocaleString()}</time></td>
                <td>${d.token_id===null?"\u2014":u.has(d.token_id)?c`${u.get(d.token_id)} <span class="mono muted">${d.token_id}</span>`:c`<span class="mono">${d.token_id}</span>`}</td>
                <td><span class=${`action ${d.action}`}>${d.action}</span></td>
                <td class="content">${un(d.before)}</td>
                <td class="content">${un(d.after)}</td>
              </tr>`)}
          </tbody>
        </table></div>
        <${Le} info=${s.info} label="Audit log pages" onPage=${o} />`:c`<p aria-busy="true">Loading…</p>`}
  </section>`}var A=class extends Error{line;column;reason;constructor(t,n){super(`line ${n.line}, column ${n.column}: ${t}`),this.name="ZoneFileError",this.line=n.line,this.column=n.column,this.reason=t}};var Re=10,lt=13,ct=32,dt=9,Ie=34,mn=59,hn=40,_n=41,fn=92,Co=61;function Eo(e){return e>=48&&e<=57}function Ao(e){return e===ct||e===dt||e===Re||e===lt||e===mn||e===hn||e===_n||e===Ie}var Oe={maxChars:262144,maxTokens:1e4};function ie(e){return{line:e.line,column:e.column+e.text.length}}function*$n(e,t=Oe){let n=e.length,o=e.charCodeAt(0)===65279?1:0,s=1,r=o,a=[],i=[],u=!1,p,d=!0,_=T=>({line:s,column:T-r+1}),f=-1,l={line:1,column:1},$=1/0,g=T=>{f>=0||(f=T,l=_(T),$=T+t.maxChars)},y=()=>{throw new A(`a record is longer than ${t.maxChars} characters (it starts here)`,l)},S=T=>{if(i.length>=t.maxTokens)throw new A(`a record has more than ${t.maxTokens} tokens (it starts here)`,l);i.push(T)},h=T=>{let k=T+1<n?e.charCodeAt(T+1):-1;if(k===-1||k===Re||k===lt)throw new A("bad escape sequence",_(T));if(!Eo(k))return 2;let x=e.slice(T+1,T+4);if(!/^\d{3}$/.test(x)||Number(x)>255)throw new A("bad escape sequence",_(T));return 4},v=T=>{let k=T+1;for(;;){k>$&&y();let x=k<n?e.charCodeAt(k):-1;if(x===-1||x===Re)throw new A("unterminated quoted string",_(T));if(x===Ie)return k;k+=x===fn?h(k):1}};for(;o<n;){let T=e.charCodeAt(o);if(d&&(d=!1,a.length===0&&i.length===0&&(u=T===ct||T===dt)),T===Re)a.length===0&&(i.length>0&&(yield p===void 0?{tokens:i,blankOwner:u}:{tokens:i,blankOwner:u,comment:p},i=[]),f=-1,$=1/0),p=void 0,s++,o++,r=o,d=!0;else if(T===ct||T===dt||T===lt)o++;else if(T===mn){let k=e.indexOf(`
`,o);if(k===-1&&(k=n),f>=0){k>$&&y();let x=e.slice(o+1,k).trim();p=x===""?void 0:x}o=k}else if(T===hn)g(o),a.push(_(o)),o++;else if(T===_n){if(!a.pop())throw new A("unbalanced parenthesis",_(o));o++}else if(T===Ie){g(o);let k=v(o);S({text:e.slice(o,k+1),line:s,column:o-r+1,quoted:!0}),o=k+1}else{g(o);let k=o;for(;k<n;){k>$&&y();let x=e.charCodeAt(k);if(x===Ie&&k>o&&e.charCodeAt(k-1)===Co){k=v(k)+1;continue}if(Ao(x))break;k+=x===fn?h(k):1}S({text:e.slice(o,k),line:s,column:o-r+1,quoted:!1}),o=k}}let w=a.pop();if(w)throw new A("unbalanced parenthesis",w);i.length>0&&(yield p===void 0?{tokens:i,blankOwner:u}:{tokens:i,blankOwner:u,comment:p})}var Po={w:604800,d:86400,h:3600,m:60,s:1},No=/^(?:\d+[wdhms])+$/i,Lo=/(\d+)([wdhms])/gi;function le(e){let t;if(/^\d+$/.test(e))t=Number(e);else if(No.test(e)){t=0;for(let[,n,o]of e.matchAll(Lo))t+=Number(n)*(Po[o.toLowerCase()]??0)}else return;return t<=2147483647?t:void 0}var Ro=new Set(["CH","CHAOS","HS","HESIOD","CS","CSNET","NONE","ANY"]),Io=/^[A-Z][A-Z0-9-]*$/;function Oo(e){return e==="IN"||Ro.has(e)||/^CLASS\d+$/.test(e)}function ut(e,t){let n=t,o,s=!1;for(;;){let u=e[n];if(!u||u.quoted)break;let p=u.text.toUpperCase(),d=u.text.charCodeAt(0);if(o===void 0&&d>=48&&d<=57){if(o=le(u.text),o===void 0)throw new A(`bad TTL "${u.text}"`,u)}else if(!s&&Oo(p)){if(p!=="IN"&&p!=="CLASS1")throw new A(`unsupported class ${u.text}`,u);s=!0}else break;n++}let r=e[n];if(!r)throw new A("missing record type",ie(e[n-1]));let a=r.text.toUpperCase();if(r.quoted||!Io.test(a))throw new A(`bad record type "${r.text}"`,r);if(n+1>=e.length)throw new A("missing rdata",ie(r));let i=e.slice(n+1);return o===void 0?{type:a,rdata:i}:{ttl:o,type:a,rdata:i}}function gn(e){let t=e[0]?.text??"";for(let n=1;n<e.length;n++)t+=" "+e[n].text;return t}var pt=4294967295,Fo=255;function yn(e){let t=/^(\d+)-(\d+)(?:\/(\d+))?$/.exec(e.text),n=Number(t?.[1]),o=Number(t?.[2]),s=t?.[3]===void 0?1:Number(t[3]);if(!t||e.quoted||n>o||o>pt||s<1||s>pt)throw new A(`bad $GENERATE range "${e.text}"`,e);return{start:n,stop:o,step:s,count:Math.floor((o-n)/s)+1}}function ft(e,t){let{text:n}=e,o=[],s="",r=0;for(;r<n.length;){let a=n[r],i=n[r+1];if(a==="\\"&&i!==void 0)s+=i==="$"?"$":a+i,r+=2;else if(a==="$"&&i==="$")s+="$",r+=2;else if(a==="$"){let u={line:e.line,column:e.column+r},p={offset:0,width:0,base:"d"};if(r++,i==="{"){let f=n.indexOf("}",r),l=/^([+-]?\d+)(?:,(\d+)(?:,([doxXnN]))?)?$/.exec(n.slice(r+1,f));if(f===-1||!l||Number(l[2]??0)>Fo)throw new A("bad $GENERATE modifier",u);p={offset:Number(l[1]),width:Number(l[2]??0),base:l[3]??"d"},r=f+1}let d=t.start+p.offset,_=t.stop+p.offset;if(d<0||_>pt)throw new A("$GENERATE value out of range",u);s!==""&&o.push(s),s="",o.push(p)}else s+=a,r++}return s!==""&&o.push(s),o}function Do(e,t,n){let o="",s=e,r=t;do{let a=(s%16).toString(16);o+=n?a.toUpperCase():a,s=Math.floor(s/16),r>0&&r--,(r>0||s!==0)&&(o+=".",r>0&&r--)}while(s!==0||r>0);return o}function Mo(e,{width:t,base:n}){switch(n){case"n":case"N":return Do(e,t,n==="N");case"o":return e.toString(8).padStart(t,"0");case"x":return e.toString(16).padStart(t,"0");case"X":return e.toString(16).toUpperCase().padStart(t,"0");default:return e.toString(10).padStart(t,"0")}}function Fe(e,t){let n="";for(let o of e)n+=typeof o=="string"?o:Mo(t+o.offset,o);return n}function bn(e){if(e===""||e.startsWith("."))return!1;for(let t=0;t<e.length;t++){let n=e[t];if(n==="\\")t++;else if(n==="."&&(t+1===e.length||e[t+1]==="."))return!1}return!0}function De(e,t){if(e==="@")return t;if(e===".")return"";if(st(e)){let o=e.slice(0,-1);return bn(o)?o.toLowerCase():void 0}if(!bn(e))return;let n=e.toLowerCase();return t===""?n:`${n}.${t}`}function mt(e){let t=e.trim(),n=De(t===""||t==="."?".":t,"");if(n===void 0||t==="@")throw new TypeError(`invalid origin "${e}"`);return n}function ht(e){return e===""?".":e}var zo=1e6,_t=class{entries=[];origin;max;fallbackTtl;zoneTtl;lastTtl;previousOwner;constructor(t){this.origin=mt(t.origin),this.max=t.maxRecords??zo,this.fallbackTtl=t.defaultTtl}line(t){let n=t.tokens[0];!t.blankOwner&&!n.quoted&&n.text.startsWith("$")?this.directive(t):this.record(t)}record(t){let n=t.tokens[0],o;if(t.blankOwner){if(this.previousOwner===void 0)throw new A("no previous owner name",n);o=this.previousOwner}else o=this.name(n),this.previousOwner=o;let s=ut(t.tokens,t.blankOwner?0:1),r=this.resolveTtl(s,n);this.push(o,r,s.type,gn(s.rdata),t.comment,n)}directive(t){let[n,...o]=t.tokens;switch(n.text.toUpperCase()){case"$ORIGIN":this.origin=this.name(this.single(n,o,"a name"));return;case"$TTL":{let s=this.single(n,o,"a value"),r=le(s.text);if(r===void 0||s.quoted)throw new A(`bad TTL "${s.text}"`,s);this.zoneTtl=r;return}case"$GENERATE":this.generate(t);return;case"$INCLUDE":throw new A("$INCLUDE directive not allowed",n);default:throw new A(`unknown directive ${n.text}`,n)}}generate(t){let[n,o,s]=t.tokens;if(!o||!s)throw new A("$GENERATE needs a range, owner, type and rdata",ie(n));let r=yn(o),a=ut(t.tokens,3),i=this.resolveTtl(a,n);this.entries.length+r.count>this.max&&this.tooMany(n);let u=ft(s,r),p=a.rdata.map(d=>ft(d,r));for(let d=r.start;d<=r.stop;d+=r.step){let _=this.name({...s,text:Fe(u,d)}),f=Fe(p[0],d);for(let l=1;l<p.length;l++)f+=" "+Fe(p[l],d);this.push(_,i,a.type,f,t.comment,n)}}single(t,n,o){let[s,r]=n;if(!s)throw new A(`${t.text} needs ${o}`,ie(t));if(r)throw new A(`unexpected "${r.text}"`,r);return s}name(t){if(t.quoted)throw new A("name cannot be a quoted string",t);let n=De(t.text,this.origin);if(n===void 0)throw new A(`bad name "${t.text}"`,t);return n}resolveTtl(t,n){if(t.ttl!==void 0)return this.lastTtl=t.ttl,t.ttl;if(this.zoneTtl!==void 0)return this.zoneTtl;if(this.lastTtl!==void 0)return this.lastTtl;let o=t.type==="SOA"?t.rdata[6]:void 0,s=o&&!o.quoted?le(o.text):void 0;if(s!==void 0)return this.zoneTtl=s,s;if(this.fallbackTtl!==void 0)return this.fallbackTtl;throw new A("no TTL specified",n)}push(t,n,o,s,r,a){this.entries.length>=this.max&&this.tooMany(a);let i={name:ht(t),ttl:n,class:"IN",type:o,rdata:s,origin:ht(this.origin),line:a.line};r!==void 0&&(i.comment=r),this.entries.push(i)}tooMany(t){throw new A(`too many records (limit ${this.max})`,t)}};function $t(e,t){let n=new _t(t),o={maxChars:t.maxLineChars??Oe.maxChars,maxTokens:t.maxLineTokens??Oe.maxTokens};for(let s of $n(e,o))n.line(s);return n.entries}function vn(e,t){let n=$t(e,{origin:t,defaultTtl:1}),o=[],s=[];for(let r of n)r.type==="SOA"||r.type==="NS"&&r.name===t?s.push({...r,why:r.type==="SOA"?"the zone keeps its own SOA":"the zone keeps its own apex NS"}):o.push(r);return{create:o,skipped:s}}var gt=500;function kn({zone:e,readOnly:t,onChanged:n,onForbidden:o,notify:s}){let[r,a]=m(null),[i,u]=m(null),[p,d]=m(null),[_,f]=m(!1),[l,$]=m(null),[g,y]=m(null),[S,h]=m(!1);async function v(k){let x=k.currentTarget.files?.[0]??null;if(a(x),u(null),d(null),$(null),y(null),!!x)try{u(vn(await x.text(),e.name))}catch(N){d(N.message)}}async function w(){h(!0),y(null);let k=new FormData;k.append("file",r,r.name),_&&k.append("proxied","true");try{let{result:x,messages:N}=await C("POST",`/zones/${e.id}/dns_records/import`,k);$({...x,messages:N??[]}),u(null),s(`Imported ${x.recs_added} records.`),n()}catch(x){x.forbidden&&o(x),y(`${x.message} \u2014 nothing was imported.`)}finally{h(!1)}}async function T(){try{let k=await Jt(`/zones/${e.id}/dns_records/export`),x=URL.createObjectURL(new Blob([k],{type:"text/plain"})),N=Object.assign(document.createElement("a"),{href:x,download:`${e.name}.zone`});document.body.append(N),N.click(),N.remove(),setTimeout(()=>URL.revokeObjectURL(x),1e3),s(`Exported ${e.name}.zone`)}catch(k){s(`Export failed: ${k.message}`,!0)}}return c`<section aria-labelledby="ie-heading">
    <h2 id="ie-heading">Import and export</h2>
    <div class="card">
      <h3>Export</h3>
      <p>Download every record of ${e.name} as a BIND zone file.</p>
      <button type="button" onClick=${T}>Export zone file</button>
    </div>
    ${t?null:c`<div class="card">
          <h3>Import</h3>
          <p>Choose a BIND zone file. You see what will be created before anything changes; the import then runs as one batch: all records are added, or none.</p>
          <div class="field">
            <label for="zone-file">Zone file</label>
            <input id="zone-file" type="file" accept=".zone,.txt,.db,text/plain" onChange=${v} />
          </div>
          <div class="field check"><label><input type="checkbox" checked=${_} onChange=${k=>f(k.currentTarget.checked)} /> Proxy imported A, AAAA and CNAME records</label></div>
          ${p?c`<p class="alert error" role="alert">Cannot read the file: ${p}</p>`:null}
          ${i?c`<div class="preview" aria-labelledby="preview-heading">
                <h4 id="preview-heading">Preview: ${i.create.length} record${i.create.length===1?"":"s"} to create${i.skipped.length?`, ${i.skipped.length} skipped`:""}</h4>
                <div class="table-wrap"><table>
                  <thead><tr><th>Line</th><th>Type</th><th>Name</th><th>TTL</th><th>Content</th></tr></thead>
                  <tbody>
                    ${i.create.slice(0,gt).map(k=>c`<tr><td>${k.line}</td><td>${k.type}</td><td>${k.name}</td><td>${k.ttl}</td><td class="content">${k.rdata}</td></tr>`)}
                    ${i.skipped.map(k=>c`<tr class="muted"><td>${k.line}</td><td>${k.type}</td><td>${k.name}</td><td>${k.ttl}</td><td>skipped: ${k.why}</td></tr>`)}
                  </tbody>
                </table></div>
                ${i.create.length>gt?c`<p>… and ${i.create.length-gt} more.</p>`:null}
                <p class="muted">Records identical to existing ones are skipped by the server and reported after the import.</p>
                <button type="button" class="primary" disabled=${S||i.create.length===0} onClick=${w}>Import ${i.create.length} records</button>
              </div>`:null}
          ${g?c`<p class="alert error" role="alert">${g}</p>`:null}
          ${l?c`<div class="alert ok" role="status">
                <p>Imported ${l.recs_added} of ${l.total_records_parsed} records parsed.</p>
                ${l.messages.length?c`<ul>${l.messages.map(k=>c`<li>${k.message}</li>`)}</ul>`:null}
              </div>`:null}
        </div>`}
  </section>`}function xn({onLogin:e}){let[t,n]=m(""),[o,s]=m(null),[r,a]=m(null),i=q(null);re(()=>i.current?.focus(),[]),I(()=>{en().then(a)},[]);async function u(p){s(null);try{await C("GET","/user/tokens/verify",void 0,p),e(p)}catch(d){s(d.status===403?"That token is not valid (unknown, revoked or expired).":d.message),i.current?.focus()}}return c`<main class="login">
    <form class="card" onSubmit=${p=>(p.preventDefault(),u(t.trim()))} aria-labelledby="login-heading">
      <h1 id="login-heading">Sign in to edgedns</h1>
      <p>Paste an API token. It stays in this browser tab only (never in the address bar) and is forgotten when the tab closes.</p>
      <div class="field">
        <label for="login-token">API token</label>
        <input id="login-token" ref=${i} type="password" autocomplete="off" required value=${t} onInput=${p=>n(p.currentTarget.value)} aria-invalid=${o?"true":void 0} aria-describedby=${o?"login-error":void 0} />
        ${o?c`<small id="login-error" class="error" role="alert">${o}</small>`:null}
      </div>
      <div class="actions">
        <button type="submit" class="primary">Sign in</button>
        ${r?c`<button type="button" onClick=${()=>u(r)}>Use the local dev token</button>`:null}
      </div>
      ${r?c`<p class="hint">Local development (<code>pnpm dev</code>): the dev token can do everything and exists only here.</p>`:null}
    </form>
  </main>`}function Tn({zone:e,version:t}){let[n,o]=m(null),[s,r]=m(0);if(I(()=>{let u=!1,p;return C("GET",`/zones/${e.id}/propagation`).then(({result:d})=>{u||(o(d),d.status!=="pending"&&d.built_seq<d.committed_seq&&(p=setTimeout(()=>r(_=>_+1),1e3)))}).catch(()=>!u&&o(null)),()=>(u=!0,clearTimeout(p))},[e.id,t,s]),!n)return null;if(n.status==="pending")return c`<span class="pill behind" role="status" title=${n.message??""} data-testid="propagation">Pending · not served</span>`;let a=n.built_seq<n.committed_seq,i=`Committed change ${n.committed_seq}, built ${n.built_seq}${n.built_at?` at ${n.built_at}`:""}`;return c`<span class=${`pill${a?" behind":" live"}${n.last_error?" failed":""}`} role="status" title=${i} data-testid="propagation">
    ${a?`Propagating: built ${n.built_seq} of ${n.committed_seq} (${Math.round(n.lag_ms/100)/10} s)`:`Live \xB7 change ${n.committed_seq} built`}
    ${n.last_error?` \xB7 last build error: ${n.last_error.message}`:""}
  </span>`}function wn({zone:e}){let[t,n]=m(`www.${e.name}`),[o,s]=m("A"),[r,a]=m(null);async function i(u){u.preventDefault();let p=new URLSearchParams({name:t.trim(),type:o.trim()||"A"}),d=await fetch(`/dns-query?${p}`,{headers:{accept:"application/dns-json"}});a(d.ok?JSON.stringify(await d.json(),null,2):`HTTP ${d.status}: ${await d.text()}`)}return c`<section aria-labelledby="query-heading">
    <h2 id="query-heading">Query over DNS-over-HTTPS</h2>
    <form class="toolbar" onSubmit=${i}>
      <div class="field inline"><label for="q-name">Name</label><input id="q-name" value=${t} onInput=${u=>n(u.currentTarget.value)} /></div>
      <div class="field inline"><label for="q-type">Type</label><input id="q-type" size="8" value=${o} onInput=${u=>s(u.currentTarget.value)} /></div>
      <button type="submit" class="primary">Resolve</button>
    </form>
    ${r?c`<pre class="card mono" aria-label="Answer" role="status">${r}</pre>`:null}
  </section>`}function Sn(e,t){let n=[],o=[],s=[];if(e.kind==="delete"){for(let i of t)n.push(i),o.push(`Delete ${G(i)}`);return{title:`Delete ${n.length} record${n.length===1?"":"s"}`,body:{deletes:n.map(i=>({id:i.id}))},items:n,lines:o,unchanged:s,key:"deletes"}}let r=[];for(let i of t)e.kind==="proxy"?i.proxiable?i.proxied===e.on?s.push(`${G(i)} \u2014 already ${e.on?"proxied":"DNS only"}`):(n.push(i),r.push({id:i.id,proxied:e.on}),o.push(`${e.on?"Proxy":"Stop proxying"} ${G(i)}`)):s.push(`${G(i)} \u2014 cannot be proxied`):e.kind==="ttl"&&(i.ttl===e.ttl?s.push(`${G(i)} \u2014 TTL already ${te(e.ttl)}`):(n.push(i),r.push({id:i.id,ttl:e.ttl}),o.push(`TTL ${te(i.ttl)} \u2192 ${te(e.ttl)}: ${G(i)}`)));return{title:`${e.kind==="ttl"?`Set TTL to ${te(e.ttl)} on`:e.on?"Turn proxy on for":"Turn proxy off for"} ${n.length} record${n.length===1?"":"s"}`,body:{patches:r},items:n,lines:o,unchanged:s,key:"patches"}}function te(e){return e===1?"Auto":`${e} s`}function Cn(e,t){return e.errors.map(n=>{let o=/^\/(deletes|patches|puts|posts)\/(\d+)/.exec(n.source?.pointer??""),s=o?t.items[Number(o[2])]:void 0;return`${o?`${n.source.pointer}${s?` (${G(s)})`:""}: `:""}${n.message} (code ${n.code})`})}var qo=new Set([9005,9006,9007,9009,9036,...Array.from({length:16},(e,t)=>9121+t)]),Uo=new Set([81053,81054,81058]);function Bo(e,t){let{code:n,message:o}=e,s=/\bdata\.([a-z_]+)/.exec(o);return s&&t.has(`data.${s[1]}`)?`data.${s[1]}`:n===9008||n===9100?t.has("priority")?"priority":t.has("data.priority")?"data.priority":"_form":n===9021?"ttl":n===9041?"proxied":n===9150?"comment":Uo.has(n)?"name":qo.has(n)&&t.has("content")?"content":n===9e3&&/\bname\b/i.test(o)?"name":/\bcontent\b/i.test(o)&&t.has("content")?"content":"_form"}function Me(e,t){let n=new Set(t),o={};for(let s of e.errors??[{code:0,message:String(e.message)}]){let r=Bo(s,n);o[r]=o[r]?`${o[r]}; ${s.message}`:s.message}return o}var Vo={key:"ttl",label:"TTL (seconds)",kind:"number",min:1,max:86400,hint:"1 = automatic, else 60\u201386400"},Ho={key:"comment",label:"Comment",kind:"text",hint:"optional"};function En({zone:e,record:t,onSaved:n,onCancel:o,onForbidden:s}){let[r,a]=m(()=>t?ln(t,e.name):Ne("A")),[i,u]=m({}),[p,d]=m(!1),_=q(null),f=r.type,l={key:"name",label:f==="SRV"?"Host (@ for the zone apex)":"Name",kind:"text",hint:`relative to ${e.name}; @ for the apex`},$=ee(f),g=(h,v)=>a(w=>({...w,[h]:v})),y=h=>{let v=Ne(h.currentTarget.value);a(w=>({...v,name:w.name,ttl:w.ttl,comment:w.comment})),u({})};async function S(h){h.preventDefault(),d(!0),u({});let v=cn(r);try{let w=`/zones/${e.id}/dns_records${t?`/${t.id}`:""}`,{result:T}=await C(t?"PUT":"POST",w,v);n(T,t?"Saved":"Added")}catch(w){w.forbidden&&s(w);let T=Me(w,["name","ttl","proxied","comment",...$.map(k=>k.key)]);u(T),d(!1),requestAnimationFrame(()=>_.current?.querySelector('[aria-invalid="true"], .form-error')?.focus())}}return c`<form ref=${_} class="record-form" onSubmit=${S} aria-label=${t?"Edit record":"Add record"} novalidate>
    <div class="field">
      <label for="record-type">Type</label>
      <select id="record-type" value=${f} onChange=${y} disabled=${!!t}>
        ${Pe.map(h=>c`<option value=${h}>${h}</option>`)}
      </select>
    </div>
    ${f==="SRV"?$.slice(0,2).map(h=>c`<${B} field=${h} value=${r[h.key]} error=${i[h.key]} onInput=${g} />`):null}
    <${B} field=${l} value=${r.name} error=${i.name} onInput=${g} />
    ${(f==="SRV"?$.slice(2):$).map(h=>c`<${B} field=${h} value=${r[h.key]} error=${i[h.key]} onInput=${g} />`)}
    <${B} field=${Vo} value=${r.ttl} error=${i.ttl} onInput=${g} />
    ${at.has(f)?c`<div class=${`field check${i.proxied?" has-error":""}`} data-field="proxied">
          <label><input type="checkbox" checked=${r.proxied} onChange=${h=>g("proxied",h.currentTarget.checked)} /> Proxied</label>
          ${i.proxied?c`<small class="error" role="alert">${i.proxied}</small>`:null}
        </div>`:null}
    <${B} field=${Ho} value=${r.comment} error=${i.comment} onInput=${g} />
    ${i._form?c`<p class="alert error form-error" role="alert" tabindex="-1">${i._form}</p>`:null}
    <div class="actions">
      <button type="submit" class="primary" disabled=${p}>${t?"Save record":"Add record"}</button>
      <button type="button" onClick=${o}>Cancel</button>
    </div>
  </form>`}var Zo=[["type","Type"],["name","Name"],["content","Content"],["ttl","TTL"],["proxied","Proxy status"]],jo=[25,50,100,250];function An({zone:e,readOnly:t,onChanged:n,onForbidden:o,notify:s}){let[r,a]=m({search:"",type:"",order:"type",direction:"asc",page:1,perPage:50}),[i,u]=m(""),[p,d]=m({records:[],info:null}),[_,f]=m(!1),[l,$]=m(null),[g,y]=m(()=>new Map),[S,h]=m(null),[v,w]=m(null),[T,k]=m(null),[x,N]=m(null),[j,E]=m("300"),L=q(0),z=se(async()=>{let b=++L.current;f(!0);let P=new URLSearchParams({page:String(r.page),per_page:String(r.perPage),order:r.order,direction:r.direction});r.type&&P.set("type",r.type),r.search&&P.set("search",r.search);try{let{result:X,result_info:Y}=await C("GET",`/zones/${e.id}/dns_records?${P}`);if(b!==L.current)return;d({records:X,info:Y}),$(null)}catch(X){b===L.current&&$(X.message)}finally{b===L.current&&f(!1)}},[e.id,r]);I(()=>{z()},[z]),I(()=>{y(new Map),h(null)},[e.id]);let M=async b=>{s(b),n(),await z()},eo=b=>a(P=>({...P,order:b,direction:P.order===b&&P.direction==="asc"?"desc":"asc",page:1})),to=(b,P)=>y(X=>{let Y=new Map(X);return P?Y.set(b.id,b):Y.delete(b.id),Y}),xt=p.records.map(b=>b.id),no=xt.length>0&&xt.every(b=>g.has(b)),oo=b=>y(P=>{let X=new Map(P);for(let Y of p.records)b?X.set(Y.id,Y):X.delete(Y.id);return X}),$e=b=>{N(null),k(Sn(b,[...g.values()]))};async function ro(){try{await C("POST",`/zones/${e.id}/dns_records/batch`,T.body);let b=T.title;k(null),y(new Map),await M(`Done: ${b}.`)}catch(b){b.forbidden&&o(b),N(Cn(b,T))}}async function so(b){try{await C("PATCH",`/zones/${e.id}/dns_records/${b.id}`,{proxied:!b.proxied}),await M(`${b.name}: proxy ${b.proxied?"off":"on"}.`)}catch(P){P.forbidden&&o(P),s(`${b.name}: ${P.message}`,!0)}}let ao=p.info,Tt=g.size;return c`<section aria-labelledby="records-heading">
    <div class="section-head">
      <h2 id="records-heading">DNS records</h2>
      ${t?null:c`<button type="button" class="primary" onClick=${()=>w({record:null})}>Add record</button>`}
    </div>
    <form class="toolbar" role="search" onSubmit=${b=>(b.preventDefault(),a(P=>({...P,search:i.trim(),page:1})))}>
      <div class="field inline">
        <label for="record-search">Search</label>
        <input id="record-search" type="search" placeholder="name, content or comment" value=${i} onInput=${b=>u(b.currentTarget.value)} />
      </div>
      <button type="submit">Search</button>
      <div class="field inline">
        <label for="type-filter">Type</label>
        <select id="type-filter" value=${r.type} onChange=${b=>a(P=>({...P,type:b.currentTarget.value,page:1}))}>
          <option value="">All types</option>
          ${Pe.map(b=>c`<option value=${b}>${b}</option>`)}
        </select>
      </div>
      <div class="field inline">
        <label for="page-size">Per page</label>
        <select id="page-size" value=${String(r.perPage)} onChange=${b=>a(P=>({...P,perPage:Number(b.currentTarget.value),page:1}))}>
          ${jo.map(b=>c`<option value=${String(b)}>${b}</option>`)}
        </select>
      </div>
    </form>

    ${Tt>0&&!t?c`<div class="bulk-bar" role="region" aria-label="Bulk actions">
          <strong>${Tt} selected</strong>
          <button type="button" class="danger" onClick=${()=>$e({kind:"delete"})}>Delete</button>
          <button type="button" onClick=${()=>$e({kind:"proxy",on:!0})}>Proxy on</button>
          <button type="button" onClick=${()=>$e({kind:"proxy",on:!1})}>Proxy off</button>
          <span class="ttl-group">
            <label for="bulk-ttl">TTL</label>
            <select id="bulk-ttl" value=${j} onChange=${b=>E(b.currentTarget.value)}>
              ${[1,60,300,3600,86400].map(b=>c`<option value=${String(b)}>${te(b)}</option>`)}
            </select>
            <button type="button" onClick=${()=>$e({kind:"ttl",ttl:Number(j)})}>Set TTL</button>
          </span>
          <button type="button" class="link" onClick=${()=>y(new Map)}>Clear selection</button>
        </div>`:null}

    ${l?c`<p class="alert error" role="alert">${l}</p>`:null}
    <div class="table-wrap">
      <table class="records" aria-busy=${_?"true":"false"} aria-describedby="records-heading">
        <thead>
          <tr>
            ${t?null:c`<th class="sel"><input type="checkbox" aria-label="Select all records on this page" checked=${no} onChange=${b=>oo(b.currentTarget.checked)} /></th>`}
            ${Zo.map(([b,P])=>c`<th aria-sort=${r.order===b?r.direction==="asc"?"ascending":"descending":"none"} class=${`col-${b}`}>
                <button type="button" class="sort" onClick=${()=>eo(b)}>${P}${r.order===b?r.direction==="asc"?" \u25B2":" \u25BC":""}</button>
              </th>`)}
            ${t?null:c`<th><span class="visually-hidden">Actions</span></th>`}
          </tr>
        </thead>
        <tbody>
          ${p.records.length===0&&!_?c`<tr><td colspan="7" class="empty">No records match.</td></tr>`:null}
          ${p.records.map(b=>S===b.id?c`<${Xo} key=${b.id} zone=${e} record=${b} onDone=${async P=>(h(null),P&&await M(P))} onForbidden=${o} />`:c`<${Go} key=${b.id} zone=${e} record=${b} readOnly=${t} selected=${g.has(b.id)} onSelect=${P=>to(b,P)} onEdit=${()=>h(b.id)} onMore=${()=>w({record:b})} onProxy=${()=>so(b)} />`)}
        </tbody>
      </table>
    </div>
    <${Le} info=${ao} label="Records pages" onPage=${b=>a(P=>({...P,page:b}))} />

    ${T?c`<${V} title=${T.title} onClose=${()=>k(null)}>
          <p>One batch, applied as a whole: either every change below is made, or none is.</p>
          ${T.lines.length>0?c`<ul class="change-list" aria-label="Changes">${T.lines.map(b=>c`<li>${b}</li>`)}</ul>`:c`<p>Nothing to change.</p>`}
          ${T.unchanged.length>0?c`<details><summary>${T.unchanged.length} selected record${T.unchanged.length===1?"":"s"} left unchanged</summary><ul class="change-list">${T.unchanged.map(b=>c`<li>${b}</li>`)}</ul></details>`:null}
          <${dn} messages=${x} />
          ${x?c`<p>Nothing was changed.</p>`:null}
          <div class="actions">
            <button type="button" class=${T.key==="deletes"?"danger":"primary"} disabled=${T.items.length===0} onClick=${ro}>Apply ${T.items.length} change${T.items.length===1?"":"s"}</button>
            <button type="button" onClick=${()=>k(null)}>Cancel</button>
          </div>
        <//>`:null}

    ${v?c`<${V} title=${v.record?`Edit ${v.record.type} ${v.record.name}`:"Add record"} onClose=${()=>w(null)} wide>
          <${En}
            zone=${e}
            record=${v.record}
            onForbidden=${o}
            onCancel=${()=>w(null)}
            onSaved=${async(b,P)=>(w(null),await M(`${P} ${b.type} ${b.name}.`))}
          />
        <//>`:null}
  </section>`}function Go({zone:e,record:t,readOnly:n,selected:o,onSelect:s,onEdit:r,onMore:a,onProxy:i}){let u=`${t.type} ${t.name}`;return c`<tr class=${o?"selected":""}>
    ${n?null:c`<td class="sel"><input type="checkbox" aria-label=${`Select ${u} ${t.content}`} checked=${o} onChange=${p=>s(p.currentTarget.checked)} /></td>`}
    <td class="col-type"><span class="type">${t.type}</span></td>
    <td class="col-name">${he(t.name,e.name)}<span class="fqdn">${t.name}</span></td>
    <td class="col-content content">${it(t)?c`<span class="prio">${t.priority}</span> `:null}${t.content}${t.comment?c`<div class="comment">${t.comment}</div>`:null}</td>
    <td class="col-ttl">${te(t.ttl)}</td>
    <td class="col-proxied">
      ${t.proxiable&&!n?c`<button type="button" role="switch" class=${`switch${t.proxied?" on":""}`} aria-checked=${t.proxied?"true":"false"} aria-label=${`Proxy ${u}`} onClick=${i}><span>${t.proxied?"Proxied":"DNS only"}</span></button>`:c`<span class="muted">${t.proxied?"Proxied":"DNS only"}</span>`}
    </td>
    ${n?null:c`<td class="row-actions">
          <button type="button" onClick=${r} aria-label=${`Edit ${u} inline`}>Edit</button>
          <button type="button" class="link" onClick=${a} aria-label=${`Edit all fields of ${u}`}>Fields…</button>
        </td>`}
  </tr>`}function Xo({zone:e,record:t,onDone:n,onForbidden:o}){let s=ee(t.type).some(v=>v.key==="content"),[r,a]=m(he(t.name,e.name)),[i,u]=m(t.content),[p,d]=m(t.priority===void 0?"":String(t.priority)),[_,f]=m(String(t.ttl)),[l,$]=m({}),g=q(null);re(()=>g.current?.focus(),[]);async function y(v){v?.preventDefault();let w={};if(r!==he(t.name,e.name)&&(w.name=r),i!==t.content&&(w.content=i),t.type==="MX"&&p!==String(t.priority)&&(w.priority=Number(p)),_!==String(t.ttl)&&(w.ttl=Number(_)),Object.keys(w).length===0)return n(null);try{await C("PATCH",`/zones/${e.id}/dns_records/${t.id}`,w),n(`Saved ${t.type} ${r==="@"?e.name:r}.`)}catch(T){T.forbidden&&o(T),$(Me(T,["name","content","priority","ttl"]))}}let S=v=>{v.key==="Escape"&&n(null),v.key==="Enter"&&y(v)},h=v=>l[v]?c`<small class="error" role="alert">${l[v]}</small>`:null;return c`<tr class="editing" onKeyDown=${S}>
    <td class="sel"></td>
    <td class="col-type"><span class="type">${t.type}</span></td>
    <td class="col-name"><input ref=${g} aria-label="Name" value=${r} onInput=${v=>a(v.currentTarget.value)} aria-invalid=${l.name?"true":void 0} />${h("name")}</td>
    <td class="col-content">
      ${t.type==="MX"?c`<input class="prio-input" type="number" aria-label="Priority" value=${p} onInput=${v=>d(v.currentTarget.value)} />`:null}
      ${s?c`<input aria-label="Content" value=${i} onInput=${v=>u(v.currentTarget.value)} aria-invalid=${l.content?"true":void 0} />`:c`<span class="content">${t.content}</span> <small class="hint">(its fields: use “Fields…”)</small>`}
      ${h("content")}${h("priority")}${h("_form")}
    </td>
    <td class="col-ttl"><input type="number" aria-label="TTL" value=${_} onInput=${v=>f(v.currentTarget.value)} aria-invalid=${l.ttl?"true":void 0} />${h("ttl")}</td>
    <td class="col-proxied"></td>
    <td class="row-actions">
      <button type="button" class="primary" onClick=${y}>Save</button>
      <button type="button" onClick=${()=>n(null)}>Cancel</button>
    </td>
  </tr>`}var ze=[{key:"soa.mname",label:"Primary name server (MNAME)",kind:"text"},{key:"soa.rname",label:"Responsible mailbox (RNAME)",kind:"text",hint:"e.g. hostmaster.example.com"},{key:"soa.refresh",label:"Refresh (s)",kind:"number",min:0},{key:"soa.retry",label:"Retry (s)",kind:"number",min:0},{key:"soa.expire",label:"Expire (s)",kind:"number",min:0},{key:"soa.min_ttl",label:"Negative-caching TTL (SOA minimum)",kind:"number",min:0},{key:"soa.ttl",label:"SOA record TTL (s)",kind:"number",min:0},{key:"ns_ttl",label:"NS record TTL (s)",kind:"number",min:0},{key:"proxy_addresses.ipv4",label:"Proxy IPv4 addresses",kind:"text",hint:"comma-separated; proxied A records answer these"},{key:"proxy_addresses.ipv6",label:"Proxy IPv6 addresses",kind:"text",hint:"comma-separated; proxied AAAA records answer these"}];function yt(e){let t={ns_ttl:String(e.ns_ttl),"proxy_addresses.ipv4":e.proxy_addresses.ipv4.join(", "),"proxy_addresses.ipv6":e.proxy_addresses.ipv6.join(", ")};for(let[n,o]of Object.entries(e.soa))t[`soa.${n}`]=String(o);return t}function Pn(e){let t=o=>o.split(",").map(s=>s.trim()).filter(Boolean),n={};for(let o of ze.filter(s=>s.key.startsWith("soa.")))n[o.key.slice(4)]=o.kind==="number"?Number(e[o.key]):e[o.key].trim();return{soa:n,ns_ttl:Number(e.ns_ttl),proxy_addresses:{ipv4:t(e["proxy_addresses.ipv4"]),ipv6:t(e["proxy_addresses.ipv6"])}}}function Nn(e){let t={};for(let n of e.errors){let o=ze.find(r=>n.message===r.key||n.message.startsWith(`${r.key}:`)||n.message.startsWith(`${r.key}.`)),s=o?o.key:"_form";t[s]=t[s]?`${t[s]}; ${n.message}`:n.message}return t}function Ln({zone:e,readOnly:t,onForbidden:n,notify:o}){let[s,r]=m(null),[a,i]=m({}),[u,p]=m(null),d=e.type==="secondary";I(()=>{C("GET",`/zones/${e.id}/dns_settings`).then(({result:f})=>r(yt(f))).catch(f=>p(f.message))},[e.id]);async function _(f){f.preventDefault(),i({});try{let l=Pn(s);d&&delete l.soa;let{result:$}=await C("PATCH",`/zones/${e.id}/dns_settings`,l);r(yt($)),o("Zone settings saved.")}catch(l){l.forbidden&&n(l),i(Nn(l))}}return u?c`<p class="alert error" role="alert">${u}</p>`:s?c`<section aria-labelledby="settings-heading">
    <h2 id="settings-heading">Zone settings</h2>
    <form class="settings-form" onSubmit=${_} novalidate>
      <fieldset disabled=${t}>
        <legend>SOA, NS TTL and proxy addresses of ${e.name}</legend>
        ${d?c`<p class="hint" data-testid="soa-from-primary">${e.name} is a secondary zone: its SOA is its primary’s, copied by zone transfer.</p>`:null}
        <div class="grid">
          ${ze.map(f=>c`<${B} field=${f} value=${s[f.key]} error=${a[f.key]} disabled=${d&&f.key.startsWith("soa.")} onInput=${(l,$)=>r(g=>({...g,[l]:$}))} />`)}
        </div>
      </fieldset>
      ${a._form?c`<p class="alert error" role="alert">${a._form}</p>`:null}
      ${t?null:c`<div class="actions"><button type="submit" class="primary">Save settings</button></div>`}
    </form>
  </section>`:c`<p aria-busy="true">Loading settings…</p>`}var qe="com.cloudflare.api.account.zone.",Ue="com.cloudflare.api.account.";function Rn(e,t,n,o){let s=e.filter(p=>t.includes(p.id)),r=s.filter(p=>p.scopes.includes("com.cloudflare.api.account.zone")),a=s.filter(p=>!p.scopes.includes("com.cloudflare.api.account.zone")),i=[],u=p=>p.map(d=>({id:d.id}));if(r.length){let p=n==="zone"?{[`${qe}${o.id}`]:"*"}:{[`${Ue}${o.account.id}`]:{[`${qe}*`]:"*"}};i.push({effect:"allow",permission_groups:u(r),resources:p})}return a.length&&i.push({effect:"allow",permission_groups:u(a),resources:{[`${Ue}${o.account.id}`]:"*"}}),i}var Yo=e=>e.policies.map(t=>`${t.permission_groups.map(n=>n.name).join(", ")} on ${Object.keys(t.resources).map(n=>n.replace(qe,"zone ").replace(Ue,"account ")).join(", ")}`).join("; ");function In({zone:e,notify:t}){let[n,o]=m(null),[s,r]=m([]),[a,i]=m(null),[u,p]=m(""),[d,_]=m([]),[f,l]=m("zone"),[$,g]=m(null),[y,S]=m(null),[h,v]=m(null),w=()=>C("GET","/user/tokens").then(({result:x})=>(o(x),i(null))).catch(x=>i(x.forbidden?`This token cannot manage API tokens: ${x.message}`:x.message));I(()=>{w(),C("GET","/user/tokens/permission_groups").then(({result:x})=>r(x)).catch(()=>{})},[]);async function T(x){if(x.preventDefault(),g(null),d.length===0)return g("Choose at least one permission.");try{let{result:N}=await C("POST","/user/tokens",{name:u.trim(),policies:Rn(s,d,f,e)});S({name:N.name,value:N.value}),p(""),_([]),await w()}catch(N){g(N.message)}}async function k(){try{await C("DELETE",`/user/tokens/${h.id}`),t(`Revoked ${h.name}.`),v(null),await w()}catch(x){t(x.message,!0)}}return a?c`<section aria-labelledby="tokens-heading"><h2 id="tokens-heading">API tokens</h2><p class="alert error" role="alert">${a}</p></section>`:c`<section aria-labelledby="tokens-heading">
    <h2 id="tokens-heading">API tokens</h2>
    ${y?c`<div class="alert ok secret" role="status">
          <p>Token <strong>${y.name}</strong> created. Copy its secret now: it is shown only once.</p>
          <label for="token-secret">Secret</label>
          <input id="token-secret" class="mono" readonly value=${y.value} onFocus=${x=>x.currentTarget.select()} />
          <button type="button" onClick=${()=>navigator.clipboard?.writeText(y.value).then(()=>t("Copied."))}>Copy</button>
          <button type="button" class="link" onClick=${()=>S(null)}>I have copied it</button>
        </div>`:null}
    <form class="card token-form" onSubmit=${T}>
      <h3>Create a token</h3>
      <div class="field"><label for="token-name">Token name</label><input id="token-name" required value=${u} onInput=${x=>p(x.currentTarget.value)} /></div>
      <fieldset><legend>Permissions</legend>
        ${s.map(x=>c`<label class="check"><input type="checkbox" checked=${d.includes(x.id)} onChange=${N=>_(j=>N.currentTarget.checked?[...j,x.id]:j.filter(E=>E!==x.id))} /> ${x.name}</label>`)}
      </fieldset>
      <fieldset><legend>Zones</legend>
        <label class="check"><input type="radio" name="token-scope" checked=${f==="zone"} onChange=${()=>l("zone")} /> Only ${e.name}</label>
        <label class="check"><input type="radio" name="token-scope" checked=${f==="account"} onChange=${()=>l("account")} /> Every zone of account ${e.account.name}</label>
      </fieldset>
      ${$?c`<p class="alert error" role="alert">${$}</p>`:null}
      <button type="submit" class="primary">Create token</button>
    </form>
    <div class="table-wrap"><table>
      <thead><tr><th>Name</th><th>Permissions</th><th>Status</th><th>Issued</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        ${(n??[]).map(x=>c`<tr>
            <td>${x.name}</td><td>${Yo(x)}</td><td>${x.status}</td><td><time datetime=${x.issued_on}>${new Date(x.issued_on).toLocaleString()}</time></td>
            <td><button type="button" class="danger" onClick=${()=>v(x)} aria-label=${`Revoke ${x.name}`}>Revoke</button></td>
          </tr>`)}
        ${n&&n.length===0?c`<tr><td colspan="5" class="empty">No tokens yet.</td></tr>`:null}
      </tbody>
    </table></div>
    ${h?c`<${V} title=${`Revoke ${h.name}?`} onClose=${()=>v(null)}>
          <p>Requests with this token will be refused from now on. This cannot be undone.</p>
          <div class="actions"><button type="button" class="danger" onClick=${k}>Revoke token</button><button type="button" onClick=${()=>v(null)}>Cancel</button></div>
        <//>`:null}
  </section>`}var On=["hmac-sha256.","hmac-sha512."],ne=e=>String(e??"").trim(),Fn=e=>{let t=ne(e);return t!==""&&Number.isFinite(Number(t))?Number(t):t},bt=(e,t)=>t===""?{}:{[e]:t};function vt(e){return e.ip?`${e.ip.includes(":")?`[${e.ip}]`:e.ip}:${e.port??53}`:"no address yet"}var Dn=[{path:"tsigs",title:"TSIG keys",one:"TSIG key",intro:"Sign transfers and NOTIFY with a peer (RFC 8945). A key a peer uses cannot be deleted.",fields:()=>[{key:"name",label:"Key name",kind:"text",hint:"as the other server names it, e.g. xfr.example"},{key:"algo",label:"Algorithm",kind:"select",options:On},{key:"secret",label:"Secret (base64)",kind:"text",hint:"at least 16 bytes, e.g. from tsig-keygen"}],columns:[["Name",e=>e.name],["Algorithm",e=>e.algo],["Secret",e=>`${"\u2022".repeat(8)} (${e.secret.length} characters)`]],toValues:e=>({name:e?.name??"",algo:e?.algo??On[0],secret:e?.secret??""}),toBody:e=>({name:ne(e.name),algo:e.algo,secret:ne(e.secret)})},{path:"peers",title:"Peers",one:"peer",intro:"Name servers zones are transferred from (primaries of secondary zones) or to (secondaries notified of changes).",fields:({tsigs:e})=>[{key:"name",label:"Name",kind:"text"},{key:"ip",label:"IP address",kind:"text",hint:"IPv4 or IPv6; may be set later"},{key:"port",label:"Port",kind:"number",min:1,max:65535,hint:"53 when left empty"},{key:"ixfr_enable",label:"Ask IXFR first",kind:"select",options:[{value:"false",label:"No: AXFR only"},{value:"true",label:"Yes: IXFR, AXFR when it fails"}],hint:"for zones transferred in from this peer"},{key:"tsig_id",label:"TSIG key",kind:"select",options:[{value:"",label:"None (unsigned)"},...e.map(t=>({value:t.id,label:t.name}))]}],columns:[["Name",e=>e.name],["Address",vt],["IXFR",e=>e.ixfr_enable?"yes":"no"],["TSIG key",(e,{tsigs:t})=>e.tsig_id?t.find(n=>n.id===e.tsig_id)?.name??e.tsig_id:"none"]],toValues:e=>({name:e?.name??"",ip:e?.ip??"",port:e?.port===void 0?"":String(e.port),ixfr_enable:String(!!e?.ixfr_enable),tsig_id:e?.tsig_id??""}),toBody:e=>({name:ne(e.name),...bt("ip",ne(e.ip)),...bt("port",Fn(e.port)),ixfr_enable:e.ixfr_enable==="true",...bt("tsig_id",e.tsig_id)})},{path:"acls",title:"Transfer ACLs",one:"ACL",intro:"Address ranges allowed to ask the account\u2019s zones by AXFR/IXFR.",fields:()=>[{key:"name",label:"Name",kind:"text"},{key:"ip_range",label:"Address range",kind:"text",hint:"CIDR, e.g. 192.0.2.0/24 or 2001:db8::/32"}],columns:[["Name",e=>e.name],["Range",e=>e.ip_range]],toValues:e=>({name:e?.name??"",ip_range:e?.ip_range??""}),toBody:e=>({name:ne(e.name),ip_range:ne(e.ip_range)})}];function kt(e){return{peers:e?.peers??[],auto_refresh_seconds:String(e?.auto_refresh_seconds??86400)}}function Mn(e,t){return{name:e.name,peers:t.peers,auto_refresh_seconds:Fn(t.auto_refresh_seconds)}}function zn(e,t){return{name:e.name,peers:t.peers}}function qn(e,t,n){let o=e.filter(s=>s!==t);return n?[...o,t]:o}function Un(e){return(e??[]).map(t=>`${t.count.toLocaleString("en")} ${t.type} record${t.count===1?"":"s"}: ${t.reason}`)}function Bn(e){return e.serving!==!1?"yes":e.soa_serial===void 0?"no: it holds no copy yet":"no: its copy passed the SOA expire without a primary confirming it"}function Vn(e){let t=e.failed_checks??1;return`The last ${t===1?"check":`${t} checks`} of the primaries failed: ${e.last_error}`}function Hn(e){let t=[],n=Math.round(e);for(let[o,s]of[["d",86400],["h",3600],["min",60]])n>=s&&t.push(`${Math.floor(n/s)} ${o}`),n%=s;return(n>0||t.length===0)&&t.push(`${n} s`),t.join(" ")}function ce(e,t){let n={};for(let o of e.errors??[{message:String(e.message)}]){let s=/^([a-z_]+)\b/.exec(o.message)?.[1],r=s&&t.includes(s)&&/^[a-z_]+(\.|:|\[)/.test(o.message)?s:"_form";n[r]=n[r]?`${n[r]}; ${o.message}`:o.message}return n}var Wo=0;function _e({legend:e,peers:t,chosen:n,onChange:o,error:s,ordered:r}){let a=q(`peers-error-${++Wo}`).current,i=new Set((t??[]).map(p=>p.id)),u=p=>{let d=t?.find(_=>_.id===p);return d?`${d.name} (${vt(d)})`:p};return c`<fieldset class="peer-picker" aria-describedby=${s?a:void 0}>
    <legend>${e}</legend>
    ${t===null?c`<p class="hint">This token cannot list the account’s peers: they are shown by id.</p>`:t.length===0?c`<p class="hint">No peers yet: add one under Peers.</p>`:null}
    ${[...i,...n.filter(p=>!i.has(p))].map(p=>c`<label class="check"><input type="checkbox" checked=${n.includes(p)} onChange=${d=>o(qn(n,p,d.currentTarget.checked))} /> ${u(p)}${r&&n.includes(p)?c` <span class="muted">(asked ${n.indexOf(p)+1}.)</span>`:null}</label>`)}
    ${s?c`<small id=${a} class="error" role="alert">${s}</small>`:null}
  </fieldset>`}var Ko={key:"name",label:"Catalog zone name",kind:"text",hint:"a name you will not host, e.g. catalog.example.net"};function Zn({account:e,peers:t,readOnly:n,notify:o,onForbidden:s}){let r=`/accounts/${e.id}/secondary_dns/catalog`,[a,i]=m(void 0),[u,p]=m({name:"",peers:[],enabled:!0}),[d,_]=m({}),[f,l]=m(!1),[$,g]=m(null);I(()=>{C("GET",r).then(({result:h})=>i(h)).catch(h=>h.status===404?i(null):g(h.message))},[e.id]),I(()=>{a&&p({name:a.name,peers:a.peers,enabled:a.enabled})},[a]);async function y(h){h.preventDefault(),_({});try{let{result:v}=await C("PUT",r,{...u,name:u.name.trim()});i(v),o(`Catalog zone ${v.name} saved.`)}catch(v){v.forbidden&&s(v),_(ce(v,["name","peers"]))}}async function S(){try{await C("DELETE",r),l(!1),i(null),p({name:"",peers:[],enabled:!0}),o("Catalog zone removed.")}catch(h){h.forbidden&&s(h),l(!1),o(h.message,!0)}}return $?c`<p class="alert warn" role="alert">${$}</p>`:a===void 0?null:c`<div class="transfer-list" role="group" aria-labelledby="catalog-heading">
    <h4 id="catalog-heading">Catalog zone</h4>
    <p class="hint">Lists the account’s primary zones with outgoing transfers enabled (RFC 9432): a secondary that transfers it adds and drops those zones by itself.</p>
    ${a?c`<dl class="facts">
          <dt>Status</dt><dd><span class=${`pill${a.enabled?" live":" behind"}`} data-testid="catalog-status">${a.enabled?"Served":"Off"}</span></dd>
          <dt>SOA serial</dt><dd>${a.soa_serial??"\u2014"}</dd>
        </dl>`:null}
    <form onSubmit=${y} novalidate>
      <fieldset disabled=${n}>
        <${B} field=${Ko} value=${u.name} error=${d.name} idPrefix="catalog" onInput=${(h,v)=>p(w=>({...w,[h]:v}))} />
        <${_e} legend="Secondaries that transfer it (and get its NOTIFY)" peers=${t} chosen=${u.peers} error=${d.peers} onChange=${h=>p(v=>({...v,peers:h}))} />
        <label class="check"><input type="checkbox" checked=${u.enabled} onChange=${h=>p(v=>({...v,enabled:h.currentTarget.checked}))} /> Serve the catalog</label>
      </fieldset>
      ${d._form?c`<p class="alert error" role="alert">${d._form}</p>`:null}
      ${n?null:c`<div class="actions">
            <button type="submit" class="primary">${a?"Save catalog":"Set up catalog"}</button>
            ${a?c`<button type="button" class="danger" onClick=${()=>l(!0)}>Remove catalog</button>`:null}
          </div>`}
    </form>
    ${f?c`<${V} title="Remove the catalog zone?" onClose=${()=>l(!1)}>
          <p>Secondaries provisioned through it stop learning of new zones, and may drop the zones it listed.</p>
          <div class="actions"><button type="button" class="danger" onClick=${S}>Remove</button><button type="button" onClick=${()=>l(!1)}>Cancel</button></div>
        <//>`:null}
  </div>`}function jn({account:e,lists:t,reload:n,readOnly:o,notify:s,onForbidden:r}){return c`<section class="card" aria-labelledby="account-transfers-heading">
    <h3 id="account-transfers-heading">Keys, peers, ACLs and the catalog</h3>
    <p class="hint">Of account ${e.name}: shared by every zone of the account.</p>
    ${Dn.map(a=>c`<${Qo} key=${a.path} kind=${a} account=${e} lists=${t} reload=${n} readOnly=${o} notify=${s} onForbidden=${r} />`)}
    <${Zn} account=${e} peers=${t.peers} readOnly=${o} notify=${s} onForbidden=${r} />
  </section>`}function Qo({kind:e,account:t,lists:n,reload:o,readOnly:s,notify:r,onForbidden:a}){let[i,u]=m(null),[p,d]=m(null),_=n[e.path],f=`/accounts/${t.id}/secondary_dns/${e.path}`,l=`list-${e.path}`;async function $(){try{await C("DELETE",`${f}/${p.id}`),r(`Deleted ${e.one} ${p.name}.`),d(null),await o()}catch(g){g.forbidden&&a(g),d(null),r(g.message,!0)}}return c`<div class="transfer-list" role="group" aria-labelledby=${l}>
    <div class="section-head">
      <h4 id=${l}>${e.title}</h4>
      ${s?null:c`<button type="button" onClick=${()=>u({})}>Add ${e.one}</button>`}
    </div>
    <p class="hint">${e.intro}</p>
    <div class="table-wrap"><table aria-labelledby=${l}>
      <thead><tr>${e.columns.map(([g])=>c`<th>${g}</th>`)}${s?null:c`<th><span class="visually-hidden">Actions</span></th>`}</tr></thead>
      <tbody>
        ${_.length===0?c`<tr><td colspan=${e.columns.length+1} class="empty">None yet.</td></tr>`:null}
        ${_.map(g=>c`<tr>
            ${e.columns.map(([,y])=>c`<td>${y(g,n)}</td>`)}
            ${s?null:c`<td class="row-actions">
                  <button type="button" class="link" aria-label=${`Edit ${e.one} ${g.name}`} onClick=${()=>u({item:g})}>Edit</button>
                  <button type="button" class="link" aria-label=${`Delete ${e.one} ${g.name}`} onClick=${()=>d(g)}>Delete</button>
                </td>`}
          </tr>`)}
      </tbody>
    </table></div>
    ${i?c`<${Jo} kind=${e} base=${f} item=${i.item} lists=${n} onClose=${()=>u(null)} onSaved=${async g=>(u(null),r(`Saved ${e.one} ${g.name}.`),await o())} onForbidden=${a} />`:null}
    ${p?c`<${V} title=${`Delete ${e.one} ${p.name}?`} onClose=${()=>d(null)}>
          <p>Zones and peers that use it must stop using it first; the API refuses otherwise and says which.</p>
          <div class="actions"><button type="button" class="danger" onClick=${$}>Delete ${e.one}</button><button type="button" onClick=${()=>d(null)}>Cancel</button></div>
        <//>`:null}
  </div>`}function Jo({kind:e,base:t,item:n,lists:o,onClose:s,onSaved:r,onForbidden:a}){let[i,u]=m(()=>e.toValues(n)),[p,d]=m({}),_=e.fields(o);async function f(l){l.preventDefault(),d({});try{let $=e.toBody(i),{result:g}=n?await C("PUT",`${t}/${n.id}`,$):await C("POST",t,$);await r(g)}catch($){$.forbidden&&a($),d(ce($,_.map(g=>g.key)))}}return c`<${V} title=${n?`Edit ${e.one} ${n.name}`:`Add a ${e.one}`} onClose=${s}>
    <form onSubmit=${f} novalidate>
      ${_.map(l=>c`<${B} field=${l} value=${i[l.key]} error=${p[l.key]} idPrefix=${e.path} onInput=${($,g)=>u(y=>({...y,[$]:g}))} />`)}
      ${p._form?c`<p class="alert error" role="alert">${p._form}</p>`:null}
      <div class="actions"><button type="submit" class="primary">Save ${e.one}</button><button type="button" onClick=${s}>Cancel</button></div>
    </form>
  <//>`}var Gn=["tsigs","peers","acls"],er={key:"auto_refresh_seconds",label:"Refresh (s)",kind:"number",min:300,max:604800,hint:"how often the primary\u2019s SOA is checked when no NOTIFY comes (300\u2013604,800)"},Be=e=>e?c`<time datetime=${e}>${new Date(e).toLocaleString()}</time>`:"never";function Xn({zone:e,readOnly:t,onForbidden:n,notify:o,onChanged:s}){let[r,a]=m(null),[i,u]=m(null),[p,d]=m(null),_=e.account,f=async()=>{try{let y=await Promise.all(Gn.map(S=>C("GET",`/accounts/${_.id}/secondary_dns/${S}`)));a(Object.fromEntries(Gn.map((S,h)=>[S,y[h].result]))),u(null)}catch(y){a({tsigs:[],peers:[],acls:[]}),u(y.message)}};if(I(()=>{f()},[_.id]),!r)return c`<p aria-busy="true">Loading zone transfers…</p>`;let l=i?null:r.peers,$={zone:e,peers:l,readOnly:t,onForbidden:n,notify:o,onChanged:s},g=y=>(d(y.message),o(y.message,!0));return c`<section aria-labelledby="transfers-heading">
    <h2 id="transfers-heading">Zone transfers</h2>
    ${tr(e,$)}
    ${i?c`<p class="alert warn" role="alert">The account’s keys, peers and ACLs cannot be read with this token: ${i}</p>`:c`${p?c`<p class="alert warn" role="alert" data-testid="account-read-only">This token may not change the account’s keys, peers, ACLs or catalog: ${p}</p>`:null}
          <${jn} account=${_} lists=${r} reload=${f} readOnly=${t||!!p} notify=${o} onForbidden=${g} />`}
  </section>`}function tr(e,t){return e.type==="secondary"?c`<${nr} ...${t} />`:e.type==="full"||e.type==="partial"?c`<${or} ...${t} />`:c`<p class="card">${e.name} is an ${e.type} zone: it is not transferred.</p>`}function Yn(e,t){let n=`/zones/${e.id}/secondary_dns/${t}`,[o,s]=m(void 0),[r,a]=m(null),i=()=>C("GET",n).then(({result:u})=>s(u)).catch(u=>u.status===404?s(null):a(u.message));return I(()=>{i()},[e.id]),{path:n,settings:o,setSettings:s,loadError:r,load:i}}var Wn=(e,t)=>[e,...(t.messages??[]).map(n=>n.message)].join(" ");function Kn({s:e,body:t,keys:n,picker:o,extra:s,readOnly:r,notify:a,onForbidden:i,saved:u}){let[p,d]=m({});async function _(f){f.preventDefault(),d({});try{let l=await C(e.settings?"PUT":"POST",e.path,t());e.setSettings(l.result),a(Wn(u,l)),await e.load()}catch(l){l.forbidden&&i(l),d(ce(l,n))}}return c`<form onSubmit=${_} novalidate>
    <fieldset disabled=${r}>
      ${o(p.peers)}
      ${s?.(p)}
    </fieldset>
    ${p._form?c`<p class="alert error" role="alert">${p._form}</p>`:null}
    ${r?null:c`<div class="actions"><button type="submit" class="primary">${e.settings?"Save":"Set up"}</button></div>`}
  </form>`}function Qn({s:e,what:t,notify:n,onForbidden:o}){let[s,r]=m(!1);async function a(){try{await C("DELETE",e.path),r(!1),e.setSettings(null),n(`Removed the ${t}.`)}catch(i){i.forbidden&&o(i),r(!1),n(i.message,!0)}}return c`<button type="button" class="danger" onClick=${()=>r(!0)}>Remove ${t}</button>
    ${s?c`<${V} title=${`Remove the ${t}?`} onClose=${()=>r(!1)}>
          <p>The zone keeps its records; transfers stop until it is set up again.</p>
          <div class="actions"><button type="button" class="danger" onClick=${a}>Remove</button><button type="button" onClick=${()=>r(!1)}>Cancel</button></div>
        <//>`:null}`}function nr({zone:e,peers:t,readOnly:n,onForbidden:o,notify:s,onChanged:r}){let a=Yn(e,"incoming"),[i,u]=m(kt(null)),[p,d]=m(!1),_=JSON.stringify(kt(a.settings));I(()=>u(JSON.parse(_)),[_]);async function f(){d(!0);try{await C("POST",`/zones/${e.id}/secondary_dns/force_axfr`),s(`Transferred ${e.name} by AXFR.`),r()}catch(g){g.forbidden&&o(g),s(g.message,!0)}finally{d(!1),await a.load()}}if(a.loadError)return c`<p class="alert error" role="alert">${a.loadError}</p>`;if(a.settings===void 0)return c`<p aria-busy="true">Loading…</p>`;let l=a.settings,$=Un(l?.skipped_records);return c`<section class="card" aria-labelledby="incoming-heading">
    <h3 id="incoming-heading">Incoming transfers</h3>
    <p class="hint">${e.name} is a secondary zone: its records are copied from its primaries by AXFR and IXFR, and cannot be edited here.</p>
    ${l?c`<dl class="facts">
          <dt>Copy held</dt><dd data-testid="copy-serial">${l.soa_serial===void 0?"none yet: no transfer has completed":`serial ${l.soa_serial}`}</dd>
          <dt>Serving</dt><dd data-testid="serving">${Bn(l)}</dd>
          <dt>Last confirmed by a primary</dt><dd>${Be(l.checked_time)}</dd>
          <dt>Refresh</dt><dd>every ${Hn(l.auto_refresh_seconds)} without a NOTIFY</dd>
          ${l.next_check_time?c`<dt>Next check</dt><dd>${Be(l.next_check_time)}</dd>`:null}
          ${l.expires_time?c`<dt>${l.serving?"Expires unless a primary confirms it":"Expired"}</dt><dd data-testid="expires">${Be(l.expires_time)}</dd>`:null}
        </dl>`:c`<p>No incoming transfers are set up: pick the zone’s primaries to start.</p>`}
    ${l?.last_error?c`<p class="alert error" data-testid="last-error">${Vn(l)}</p>`:null}
    ${$.length?c`<div class="alert warn" data-testid="skipped-records"><p>Records the primary holds that the copy lacks (not served here):</p><ul>${$.map(g=>c`<li>${g}</li>`)}</ul></div>`:null}
    <${Kn}
      s=${a}
      body=${()=>Mn(e,i)}
      keys=${["peers","auto_refresh_seconds"]}
      readOnly=${n}
      notify=${s}
      onForbidden=${o}
      saved="Incoming transfer settings saved."
      picker=${g=>c`<${_e} legend="Primaries, asked in order" peers=${t} chosen=${i.peers} ordered=${!0} error=${g} onChange=${y=>u(S=>({...S,peers:y}))} />`}
      extra=${g=>c`<${B} field=${er} value=${i.auto_refresh_seconds} error=${g.auto_refresh_seconds} onInput=${(y,S)=>u(h=>({...h,[y]:S}))} />`}
    />
    ${l&&!n?c`<div class="actions">
          <button type="button" onClick=${f} disabled=${p} aria-busy=${p?"true":void 0}>${p?"Transferring\u2026":"Transfer now (AXFR)"}</button>
          <${Qn} s=${a} what="incoming transfer settings" notify=${s} onForbidden=${o} />
        </div>`:null}
  </section>`}function or({zone:e,peers:t,readOnly:n,onForbidden:o,notify:s}){let r=Yn(e,"outgoing"),[a,i]=m([]),[u,p]=m(null),d=JSON.stringify(r.settings?.peers??[]);I(()=>i(JSON.parse(d)),[d]),I(()=>{C("GET",`/zones/${e.id}/secondary_dns/outgoing/status`).then(({result:$})=>p($)).catch(()=>p(null))},[e.id,r.settings]);let _=($,g)=>async()=>{try{let y=await C("POST",`/zones/${e.id}/secondary_dns/outgoing/${$}`);$!=="force_notify"&&p(y.result),s(Wn(g,y))}catch(y){y.forbidden&&o(y),s(y.message,!0)}};if(r.loadError)return c`<p class="alert error" role="alert">${r.loadError}</p>`;if(r.settings===void 0)return c`<p aria-busy="true">Loading…</p>`;let f=r.settings,l=u==="Enabled";return c`<section class="card" aria-labelledby="outgoing-heading">
    <h3 id="outgoing-heading">Outgoing transfers</h3>
    <p class="hint">Secondaries may transfer ${e.name} by AXFR and IXFR, signed with their peer’s TSIG key and from an address an ACL allows; the peers picked here get a NOTIFY after every change.</p>
    ${f?c`<dl class="facts">
          <dt>Status</dt><dd><span class=${`pill${l?" live":" behind"}`} data-testid="outgoing-status">${u??"\u2026"}</span></dd>
          <dt>SOA serial</dt><dd>${f.soa_serial??"\u2014"}</dd>
          <dt>Last transferred</dt><dd>${Be(f.last_transferred_time)}</dd>
        </dl>`:c`<p>No outgoing transfers are set up. Set them up, then enable them.</p>`}
    <${Kn}
      s=${r}
      body=${()=>zn(e,{peers:a})}
      keys=${["peers"]}
      readOnly=${n}
      notify=${s}
      onForbidden=${o}
      saved="Outgoing transfer settings saved."
      picker=${$=>c`<${_e} legend="Secondaries to notify" peers=${t} chosen=${a} error=${$} onChange=${i} />`}
    />
    ${f&&!n?c`<div class="actions">
          ${l?c`<button type="button" onClick=${_("disable","Outgoing transfers disabled.")}>Disable</button>`:c`<button type="button" class="primary" onClick=${_("enable","Outgoing transfers enabled.")}>Enable</button>`}
          <button type="button" onClick=${_("force_notify","NOTIFY sent to the secondaries.")} disabled=${!l}>Send NOTIFY now</button>
          <${Qn} s=${r} what="outgoing transfer settings" notify=${s} onForbidden=${o} />
        </div>`:null}
  </section>`}var rr=[["records","DNS records"],["import","Import / export"],["settings","Settings"],["transfers","Zone transfers"],["audit","Audit log"],["tokens","API tokens"],["query","Query"]];function Jn(){let[e,t]=m(Ce.token);return e?c`<${sr} onLogout=${()=>(Ce.clear(),t(""))} />`:c`<${xn} onLogin=${n=>(Ce.set(n),t(n))} />`}function sr({onLogout:e}){let[t,n]=m(null),[o,s]=m(null),[r,a]=m("records"),[i,u]=m("unknown"),[p,d]=m(null),[_,f]=m(0),[l,$]=m(!1),[g,y]=m(null),S=q(0),h=q(null),v=se((E,L=!1)=>{d({message:E,error:L}),clearTimeout(S.current),S.current=setTimeout(()=>d(null),L?12e3:6e3)},[]),w=se(E=>u(E.message),[]),T=se(()=>f(E=>E+1),[]),k=async E=>{try{let{result:L}=await C("GET","/zones?per_page=1000&order=name");n(L),s(z=>L.find(M=>M.id===(E??z?.id))??L[0]??null)}catch(L){L.status===403&&L.errors[0]?.code===9109&&e(),y(L.message)}};I(()=>{k()},[]),I(()=>{o&&(u("unknown"),C("POST",`/zones/${o.id}/dns_records/batch`,{}).then(()=>u("edit")).catch(E=>u(E.forbidden?E.message:"edit")))},[o?.id]);let x=i!=="edit"?i==="unknown"?!0:i:null,N=o?.type==="secondary"&&["records","import"].includes(r),j=E=>{s(t.find(L=>L.id===E)??null),h.current?.focus()};return c`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">edgedns</span>
      ${t&&t.length>0?c`<div class="field inline zone-pick">
            <label for="zone-select">Zone</label>
            <select id="zone-select" value=${o?.id??""} onChange=${E=>j(E.currentTarget.value)}>
              ${t.map(E=>c`<option value=${E.id}>${E.name}${E.status==="pending"?" (pending)":""}</option>`)}
            </select>
          </div>`:null}
      <button type="button" onClick=${()=>$(!0)}>Add zone</button>
      ${o?c`<${Tn} zone=${o} version=${_} />`:null}
      <span class="spacer"></span>
      <a href="/client/v4/docs">API reference</a>
      <button type="button" onClick=${e}>Sign out</button>
    </header>
    ${o?c`<nav class="tabs" aria-label="Zone sections">
          ${rr.map(([E,L])=>c`<button type="button" aria-current=${r===E?"page":void 0} onClick=${()=>a(E)}>${L}</button>`)}
        </nav>`:null}
    <main id="main" ref=${h} tabindex="-1">
      ${g?c`<p class="alert error" role="alert">${g}</p>`:null}
      ${typeof x=="string"?c`<div class="alert warn" role="alert" data-testid="read-only">
            <strong>Read-only:</strong> this token may view ${o?.name??"this zone"} but not change it, so editing is hidden. (The API said: ${x})
          </div>`:null}
      ${N?c`<div class="alert warn" data-testid="secondary-zone">
            <strong>Secondary zone:</strong> the records of ${o.name} are copied from its primaries by zone transfer, so editing is hidden. Change them on the primary; see <button type="button" class="link" onClick=${()=>a("transfers")}>Zone transfers</button>.
          </div>`:null}
      ${o?.status==="pending"?c`<${rn} key=${o.id} zone=${o} onActivated=${()=>(k(o.id),T(),v(`${o.name} is active and served.`))} />`:null}
      ${t&&t.length===0?c`<p>No zones yet. <button type="button" onClick=${()=>$(!0)}>Add a zone</button></p>`:null}
      ${o?ar(r,{zone:o,readOnly:!!x,recordsReadOnly:!!x||N,onChanged:T,onForbidden:w,notify:v,version:_}):null}
    </main>
    <div class=${`notice${p?" show":""}${p?.error?" error":""}`} role="status" aria-live="polite" data-testid="notice">${p?.message??""}</div>
    ${l?c`<${ir} onClose=${()=>$(!1)} onAdded=${E=>($(!1),k(E.id),v(`Added zone ${E.name}.`))} />`:null}
  </div>`}function ar(e,t){switch(e){case"records":return c`<${An} key=${t.zone.id} ...${t} readOnly=${t.recordsReadOnly} />`;case"import":return c`<${kn} key=${t.zone.id} ...${t} readOnly=${t.recordsReadOnly} />`;case"transfers":return c`<${Xn} key=${t.zone.id} ...${t} />`;case"settings":return c`<${Ln} key=${t.zone.id} ...${t} />`;case"audit":return c`<${pn} key=${t.zone.id} ...${t} />`;case"tokens":return c`<${In} ...${t} />`;case"query":return c`<${wn} key=${t.zone.id} ...${t} />`}}function ir({onClose:e,onAdded:t}){let[n,o]=m(""),[s,r]=m("full"),[a,i]=m(null);async function u(p){p.preventDefault();try{let{result:d}=await C("POST","/zones",{name:n.trim(),type:s});t(d)}catch(d){i(d.message)}}return c`<${V} title="Add a zone" onClose=${e}>
    <form onSubmit=${u}>
      <div class="field">
        <label for="zone-name">Zone name</label>
        <input id="zone-name" required placeholder="example.org" value=${n} onInput=${p=>o(p.currentTarget.value)} aria-invalid=${a?"true":void 0} aria-describedby=${a?"zone-error":void 0} />
        ${a?c`<small id="zone-error" class="error" role="alert">${a}</small>`:null}
      </div>
      <fieldset>
        <legend>Zone type</legend>
        <label class="check"><input type="radio" name="zone-type" checked=${s==="full"} onChange=${()=>r("full")} /> Primary: records edited here</label>
        <label class="check"><input type="radio" name="zone-type" checked=${s==="secondary"} onChange=${()=>r("secondary")} /> Secondary: records copied from a primary by zone transfer</label>
      </fieldset>
      <div class="actions"><button type="submit" class="primary">Add zone</button><button type="button" onClick=${e}>Cancel</button></div>
    </form>
  <//>`}Dt(c`<${Jn} />`,document.getElementById("app"));
