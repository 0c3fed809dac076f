// Built from workers/dashboard/src by workers/dashboard/build.mjs — do not edit.
var R,At,uo,Y,Be,ke,Pt,ye,Nt,Ze,He,po,ue=Symbol.for("pv"),xe={},Te=[],fo=/^m(i|n|o|s|text|space)$/,je=Array.isArray,Xe=Te.slice,Q=Object.assign;function J(e){e&&e.parentNode&&e.remove()}function Lt(e,t,n){var o,a,r,s={},i=arguments.length;for(r in t)r=="key"?o=t[r]:r=="ref"&&typeof e!="function"?a=t[r]:s[r]=t[r];return i>2&&(s.children=i>3?Xe.call(arguments,2):n),de(e,s,o,a,null)}function de(e,t,n,o,a){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:ue,__v:a||++At,__i:-1,__u:0};return!a&&R.vnode&&R.vnode(r),r}function Se(e){return e.children}function be(e,t){this.props=e,this.context=t,this.__g=0}function K(e,t){if(t==null)return e.__&&K(e.__,e.__i+1);for(var n;t<e.__k.length;t++)if((n=e.__k[t])&&n.__e)return n.__e;return typeof e.type!="function"||e.props.__P?null:K(e)}function mo(e){var t,n=e.__v,o=n.__e,a=[],r=[],s=e.__P;s&&((t=Q({constructor:ue},n)).__v=n.__v+1,R.vnode&&R.vnode(t),Ge(s,t,n,e.__n,s.namespaceURI,32&n.__u?[o]:null,a,o||K(n),32&n.__u,r),t.__v=n.__v,t.__.__k[t.__i]=t,Mt(a,t,r),n.__=n.__e=null,t.__e!=o&&Rt(t))}function Rt(e){if((e=e.__)&&e.__c&&!e.props.__P)return e.__e=null,e.__k.some(function(t){return t&&(e.__e=t.__e)}),Rt(e)}function Ct(e){(8&e.__g||(e.__g|=8,Y.push(e),ke++))&&Be==R.debounceRendering||((Be=R.debounceRendering)||queueMicrotask)(It)}function It(){try{for(var e,t=1;Y.length;)Y.length>t&&Y.sort(Pt),e=Y.shift(),t=Y.length,8&e.__g&&mo(e)}finally{(ke=Y.length)&&(Be||queueMicrotask)(It)}}function Ot(e,t,n,o,a,r,s,i,u,p,d){var m,f,l,_,g,y,w=o.__k||Te,$=t.length;for(u=ho(n,t,w,u,$),m=0;m<$;m++)(l=n.__k[m])!=null&&(f=~l.__i&&w[l.__i]||xe,l.__i=m,y=Ge(e,l,f,a,r,s,i,u,p,d),_=l.__e,(f.ref!=l.ref||8&f.__u)&&(f.ref&&We(f.ref,null,l,f),l.ref&&d.push(l.ref,l.__c||_,l)),g=g||_,4&l.__u?(u=Dt(l,u,e,!f.__v),f.__e&&(f.__e=null)):typeof l.type=="function"&&y!==void 0?u=y:_&&(u=_.nextSibling),l.__u&=-21);return n.__e=g,u}function ho(e,t,n,o,a){var r,s,i,u,p,d,m,f,l,_=n.length,g=_,y=0,w=0,$=e.__k=Array(a);for(r=0;r<a;r++)(s=t[r])!=null&&typeof s!="boolean"&&typeof s!="function"?(typeof s!="object"||s.constructor===String?s=$[r]=de(null,s):je(s)?s=$[r]=de(Se,{children:s}):s.constructor===ue&&s.__b?s=$[r]=de(s.type,s.props,s.key,s.ref,s.__v):$[r]=s,u=r+y,s.__=e,s.__b=e.__b+1,i=null,~(p=s.__i=_o(s,n,u,g))&&(g--,(i=n[p])&&(i.__u|=2)),i&&i.__v?(s.__u|=16,p==u-1?y--:p==u+1?y++:p!=u&&(p>u?y--:y++,w=1)):(~p||(a>_?y--:a<_&&y++),typeof s.type!="function"&&(s.__u|=4))):$[r]=null;if(w){for(d=[],m=[],r=0;r<a;r++)if((s=$[r])&&16&s.__u){for(y=0,f=d.length;y<f;)d[l=y+f>>1]<s.__i?y=l+1:f=l;d[y]=s.__i,m[r]=y+1}for(y=d.length;r--;)m[r]&&(m[r]==y?y--:$[r].__u|=4)}if(g)for(r=0;r<_;r++)!(i=n[r])||2&i.__u||(i.__e==o&&(o=K(i)),Ye(i,i));return o}function Dt(e,t,n,o){var a,r,s,i;if(typeof e.type=="function"){if(e.props.__P)return t;if(a=e.__k)for(r=0;r<a.length;r++)a[r]&&(a[r].__=e,t=Dt(a[r],t,n,!1));return t}for(t&&!t.parentNode&&(t=K(e))&&!t.parentNode&&(t=null),s=e.__e,i=t;i&&i.nodeType==8;)i=i.nextSibling;for(s!=i&&(!o&&n.moveBefore&&s.parentNode?n.moveBefore(s,t):n.insertBefore(s,t||null)),t=s;(t=t&&t.nextSibling)&&t.nodeType==8&&!t.data.startsWith("$s"););return t}function _o(e,t,n,o){var a,r=e.key,s=e.type,i=t[n],u=i&&!(2&i.__u);if(i===null&&r==null||u&&r==i.key&&s==i.type)return n;if(o>(u?1:0)){for(a=n-1;a>=0;a--)if((i=t[a])&&!(2&i.__u)&&r==i.key&&s==i.type)return a;for(a=n+1;a<t.length;a++)if((i=t[a])&&!(2&i.__u)&&r==i.key&&s==i.type)return a}return-1}function Et(e,t,n){n==null&&(n=""),t[0]=="-"?e.setProperty(t,n):e[t]=n}function ge(e,t,n,o,a){var r,s;if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Et(e.style,t);if(n)for(t in n)o&&n[t]==o[t]||Et(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")typeof n!="function"&&(n=null),typeof o!="function"&&(o=null),(e.__e||(e.__e={}))[t]=n,n&&o||(s=He[t]||(He[t]=$o(t)),(e.__a||(e.__a={}))[t]=Ze,r=t!=(t=t.replace(Nt,"$1")),(t=t.slice(2))[0]<"a"&&(t=t.toLowerCase()),n?e.addEventListener(t,s,r):e.removeEventListener(t,s,r));else{if(a=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{return void(e[t]=n??"")}catch{}if(typeof n=="function")return;n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n)}}function $o(e){return function(t){var n=this.__e;if(n){if(n=n[e],t[ye]==null)t[ye]=Ze++;else if(t[ye]<this.__a[e])return;return n(R.event?R.event(t):t)}}}function Ge(e,t,n,o,a,r,s,i,u,p){var d,m,f,l,_,g,y,w,$,v,S,T,k,x,N,j,E,L,q=t.type;if(t.constructor!==ue)return null;128&n.__u&&(u=32&n.__u,d=n.__c.__z)&&(t.__u|=u,m=r=[],d.nodeType==8?i=ve(d,r):r.push(d),i=r[0]||i),(d=R.__b)&&d(t);e:if(typeof q=="function"){f=s.length;try{if(w=t.props,$=(d=q.prototype)&&d.render,v=(d=q.contextType)&&o[d.__c],S=d?v?v.props.value:d.__:o,(l=n.__c)?(t.__c=l,2&l.__g&&(l.__g|=1)):($?t.__c=l=new q(w,S):(t.__c=l=new be(w,S),l.constructor=q,l.render=yo),v&&v.sub(l),l.state||(l.state={}),l.__n=o,l.__g|=8,l.__h=[],l.__k=[]),$&&(l.__s||(l.__s=l.state),q.getDerivedStateFromProps&&(l.__s==l.state&&(l.__s=Q({},l.__s)),Q(l.__s,q.getDerivedStateFromProps(w,l.__s)))),_=l.props,g=l.state,l.__v=t,n.__c){if(w!==_&&$&&!q.getDerivedStateFromProps&&l.componentWillReceiveProps&&l.componentWillReceiveProps(w,S),t.__v==n.__v&&!(8&l.__g)||!(4&l.__g)&&l.shouldComponentUpdate&&l.shouldComponentUpdate(w,l.__s,S)===!1){t.__v!=n.__v&&(l.props=w,l.state=l.__s,l.__g&=-9),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(M){M&&(M.__=t)}),Te.push.apply(l.__h,l.__k),l.__k=[],l.__h.length&&s.push(l),i=K(n);break e}l.componentWillUpdate&&l.componentWillUpdate(w,l.__s,S),$&&l.componentDidUpdate&&l.__h.push(function(){l.componentDidUpdate(_,g,y)})}else $&&!q.getDerivedStateFromProps&&l.componentWillMount&&l.componentWillMount(),$&&l.componentDidMount&&l.__h.push(l.componentDidMount);l.context=S,l.props=w,l.__P=e,l.__g&=-5,T=R.__r,k=$?25:0;do l.__g&=-9,T&&T(t),d=l.render(l.props,l.state=l.__s,l.context);while(8&l.__g&&++k<25);$&&(Te.push.apply(l.__h,l.__k),l.__k=[]),l.state=l.__s,l.getChildContext&&(o=Q({},o,l.getChildContext())),$&&n.__c&&l.getSnapshotBeforeUpdate&&(y=l.getSnapshotBeforeUpdate(_,g)),x=d&&d.type===Se&&d.key==null?d.props.children:d,w.__P&&(d=i,a=(e=w.__P).namespaceURI,u=r=null,n.props&&n.props.__P!=e&&(n.__k.some(function(M){M&&Ye(M,M)}),n.__k=null),i=n.__k?K(n,0):null),i=Ot(e,je(x)?x:[x],t,n,o,a,r,s,i,u,p),w.__P&&(t.__e=null,i=d),t.__u&=-161,m&&m.some(J),l.__h.length&&s.push(l),1&l.__g&&(l.__g&=-4)}catch(M){if(s.length=f,t.__v=null,u||r)if(M&&M.then){if(t.__u|=128|u,r){for(~(E=r.indexOf(i||void 0))||(E=r.length);(L=r[E-1])&&L.nodeType==8;)E--;for(;E<r.length;E++)if(L=r[E])if(r[E]=null,N){if(L==j)break}else{if(L.nodeType!=8)break;L.data.startsWith("$s")&&(j=ve(N=L))}}if(!N){for(;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;N=i}(d=ve(N=t.__c.__z||(t.__c.__z=N)))?(t.__e=N,i=d):t.__e=i,i=i&&i.nextSibling}else r&&r.some(J);else t.__e=n.__e;t.__k||(t.__k=n.__k||[]),M&&M.then||Ft(t),R.__e(M,t,n)}}else i=t.__e=go(n.__e,t,n,o,a,r,s,u,p,e);return(d=R.diffed)&&d(t),i}function ve(e,t){if(e&&e.nodeType==8&&e.data.startsWith("$s"))for(var n=1;e=e.nextSibling;){if(e.nodeType==8){if(e.data.startsWith("$s"))n++;else if(e.data.startsWith("/$s")&&!--n)return e}t&&t.push(e)}}function Ft(e){e&&(e.__c&&(e.__c.__g|=4),e.__k&&e.__k.some(Ft))}function Mt(e,t,n){for(var o=0;o<n.length;)We(n[o++],n[o++],n[o++]);R.__c&&R.__c(t,e),e.some(function(a){try{e=a.__h,a.__h=[],e.some(function(r){r.call(a)})}catch(r){R.__e(r,a.__v)}})}function go(e,t,n,o,a,r,s,i,u,p){var d,m,f,l,_,g,y,w,$=n.props||xe,v=t.props,S=t.type;if(S=="svg"?a="http://www.w3.org/2000/svg":S=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),r){for(d=0;d<r.length;d++)if((_=r[d])&&(S?_.localName==S:_.nodeType==3)){e=_,r[d]=null;break}}if(!e){if(w=p.ownerDocument||document,!S)return w.createTextNode(v);e=w.createElementNS(a,S,v.is?v:p),i&&(R.__m&&R.__m(t,r),i=!1),r=null}if(S){if(p=S=="template"&&e.content||e,r=S=="textarea"&&v.defaultValue!=null?null:r&&Xe.call(p.childNodes),!i&&r)for($={},d=0;d<e.attributes.length;d++)$[(_=e.attributes[d]).name]=_.value;for(d in $)_=$[d],d=="dangerouslySetInnerHTML"?f=_:d=="children"||d in v||d=="value"&&"defaultValue"in v||d=="checked"&&"defaultChecked"in v||ge(e,d,null,_,a);for(d in v)_=v[d],d=="children"?l=_:d=="dangerouslySetInnerHTML"?m=_:d=="value"?g=_:d=="checked"?y=_:i&&typeof _!="function"||$[d]===_||ge(e,d,_,$[d],a);m?(i||f&&(m.__html==f.__html||m.__html==e.innerHTML)||(e.innerHTML=m.__html),t.__k=[]):(f&&(e.textContent=""),(S=="foreignObject"||a=="http://www.w3.org/1998/Math/MathML"&&fo.test(S))&&(a="http://www.w3.org/1999/xhtml"),Ot(p,je(l)?l:[l],t,n,o,a,r,s,r?r[0]:n.__k&&K(n,0),i,u),r&&r.some(J)),i&&S!="textarea"||(d="value",S=="progress"&&g==null?e.removeAttribute(d):g==null||g===e[d]&&(S!="progress"||g)||ge(e,d,g,$[d],a),d="checked",y!=null&&y!=e[d]&&ge(e,d,y,$[d],a))}else $===v||i&&e.data==v||(e.data=v);return e}function We(e,t,n,o){try{typeof e=="function"?t?t.__x=e(t)||1:o&&(o=o.__c||o.__e)&&(t=o.__x)&&(o.__x=null,typeof t=="function"?t():e(null)):e.current=t}catch(a){R.__e(a,n)}}function Ye(e,t,n){var o,a,r,s;if(R.unmount&&R.unmount(e),!(o=e.ref)||o.current&&o.current!=e.__e||We(o,null,t,e),o=e.__c){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(i){R.__e(i,t)}o.__P=o.__n=null}if(o=e.__k)for(s=0;s<o.length;s++)o[s]&&Ye(o[s],t,typeof e.type!="function"||n&&!e.props.__P);!n&&(o=e.__c)&&(o=o.__z)&&(a=ve(o,r=[]))&&(o==e.__e&&r.some(J),J(a),J(o)),n||J(e.__e),e.__e=e.__c=e.__=null}function yo(e,t,n){return this.constructor(e,n)}function qt(e,t){var n,o,a,r;R.__&&R.__(e,t),t.nodeType==9&&(t=t.documentElement),o=(n=e&&32&e.__u)?null:t.__k,t.__k=de(Se,{children:[e]}),a=[],r=[],Ge(t,t.__k,o||xe,xe,t.namespaceURI,o?null:t.firstChild?Xe.call(t.childNodes):null,a,o?o.__e:t.firstChild,n,r),Mt(a,t.__k,r),t.__k.props.children=null}R={__e:function(e,t,n,o){for(var a,r,s;t=t.__;)if((a=t.__c)&&!(1&a.__g)){a.__g|=4;try{if((s=(r=a.constructor)&&r.getDerivedStateFromError)&&a.setState(r.getDerivedStateFromError(e)),a.componentDidCatch&&(a.componentDidCatch(e,o||{}),s=1),s&&8&a.__g)return void(a.__g|=2)}catch(i){e=i}}throw ke=0,e}},At=0,uo=function(e){return e!=null&&e.constructor===ue},be.prototype.setState=function(e,t){var n=this.__s;n&&n!=this.state||(n=this.__s=Q({},this.state)),typeof e=="function"&&(e=e(Q({},n),this.props)),e&&(Q(n,e),this.__v&&(t&&this.__k.push(t),Ct(this)))},be.prototype.forceUpdate=function(e){this.__v&&(this.__g|=4,e&&this.__h.push(e),Ct(this))},be.prototype.render=Se,Y=[],ke=0,Pt=function(e,t){return e.__v.__b-t.__v.__b},ye=Symbol(),Nt=/(PointerCapture)$|Capture$/i,Ze=0,He={},po=0;var oe,D,Ke,zt,Je=Object.is,fe=0,Wt=[],Qe=[],O=R,Ut=O.__b,Vt=O.__r,Bt=O.diffed,Ht=O.__c,Zt=O.unmount,jt=O.__;function we(e,t){O.__h&&O.__h(D,e,fe||t),fe=0;var n=D.__H||(D.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function h(e){return fe=1,bo(Kt,e)}function bo(e,t,n){var o=we(oe++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Kt(void 0,t),function(r){var s=(o.__N||o.__)[0],i=o.t(s,r);Je(s,i)||(o.__N=[i,o.__[1]],o.__c.setState({}))}],o.__c=D,!D.__f)){D.__f=!0;var a=D.shouldComponentUpdate;D.shouldComponentUpdate=function(r,s,i){var u=this.__H;if(!u)return!0;var p=!1,d=this.props!=r;if(u.__.some(function(f){f.__N&&(p=!0,Je(f.__[0],f.__N[0])||(d=!0))}),a){var m=a.call(this,r,s,i);return p?m||d:m}return!p||d}}return o.__}function I(e,t){var n=we(oe++,3);!O.__s&&tt(n.__H,t)&&(n.__P=!0,n.__=e,n.u=t,D.__H.__h.push(n))}function re(e,t){var n=we(oe++,4);!O.__s&&tt(n.__H,t)&&(n.__P=!1,n.__=e,n.u=t,D.__h.push(n))}function z(e){return fe=5,Yt(function(){return{current:e}},[])}function Yt(e,t){var n=we(oe++,7);return tt(n.__H,t)&&(n.__=e(),n.__H=t),n.__}function ae(e,t){return fe=8,Yt(function(){return e},t)}function vo(){var e;do{for(;e=Qe.shift();)try{pe(e)}catch(n){O.__e(n,{__:(e=e.__P)&&e.__v})}for(;e=Wt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(pe),t.__h.some(et),t.__h=[]}catch(n){t.__h=[],O.__e(n,e.__v)}}}while(Qe.length)}O.__b=function(e){D=null,Ut&&Ut(e)},O.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),jt&&jt(e,t)},O.__r=function(e){Vt&&Vt(e),oe=0;var t=(D=e.__c).__H;t&&(Ke==D?D.__h=[]:(t.__h.some(pe),t.__h.some(et),oe=0),t.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})),Ke=D},O.diffed=function(e){Bt&&Bt(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&Gt(Wt.push(t)),t.__H.__.some(function(n){n.u&&(n.__H=n.u)})),Ke=D=null},O.__c=function(e,t){t.some(function(n){try{n.__h.some(pe),n.__h=n.__h.filter(function(o){return!o.__||et(o)})}catch(o){n.__h=[function(){throw o}]}}),Ht&&Ht(e,t)},O.unmount=function(e){Zt&&Zt(e);var t,n,o=e.__c;o&&o.__H&&(o.__H.__.some(function(a){try{if(a.__P&&a.__c){if(n===void 0){for(n=e.__;n&&(!n.__c||!n.__c.__P);)n=n.__;n=n&&n.__c}a.__P=n,Gt(Qe.push(a))}else pe(a)}catch(r){t=r}}),o.__H=void 0,t&&O.__e(t,o.__v))};var Xt=typeof requestAnimationFrame=="function";function ko(e){var t,n=function(){clearTimeout(o),Xt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);Xt&&(t=requestAnimationFrame(n))}function Gt(e){e!=1&&zt==O.requestAnimationFrame||((zt=O.requestAnimationFrame)||ko)(vo)}function pe(e){var t=D,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),D=t}function et(e){var t=D;e.__c=e.__(),D=t}function tt(e,t){return!e||e.length!=t.length||t.some(function(n,o){return!Je(n,e[o])})}function Kt(e,t){return typeof t=="function"?t(e):t}var xo="_edgedns-verify";function Jt(e){if(!e||e.status!=="pending")return null;let t=e.vanity_name_servers??[];return{txtName:`${xo}.${e.name}`,txtValue:e.verification_key,nameServers:t.length>0?t:e.name_servers??[]}}function Qt(e){let t=(e.messages??[]).find(n=>n.code===10005);return t?{activated:!1,message:t.message}:{activated:!0,message:null}}var nt="edgedns.token",rt="/client/v4",me=sessionStorage.getItem(nt)??"",Ce={get token(){return me},set(e){me=e,sessionStorage.setItem(nt,e)},clear(){me="",sessionStorage.removeItem(nt)}},ot=class extends Error{constructor(t,n){let o=n[0]??{code:t,message:"request failed"};super(`${o.message} (code ${o.code})`),this.status=t,this.errors=n}get forbidden(){return this.status===403}};async function en(e){let t=await e.json().catch(()=>null);if(t&&t.success)return t;throw new ot(e.status,t?.errors?.length?t.errors:[{code:e.status,message:e.statusText||"request failed"}])}async function C(e,t,n,o){let a={authorization:`Bearer ${o??me}`},r;n instanceof FormData?r=n:n!==void 0&&(a["content-type"]="application/json",r=JSON.stringify(n));let s=await fetch(`${rt}${t}`,{method:e,headers:a,body:r});return en(s)}async function tn(e){let t=await fetch(`${rt}${e}`,{headers:{authorization:`Bearer ${me}`}});return t.ok||await en(t),t.text()}async function nn(){try{let e=await fetch(`${rt}/local_dev`,{cache:"no-store"});return e.ok?(await e.json()).result?.dev_token??null:null}catch{return null}}async function Ee(){let e=[];for(let t=1;;t++){let{result:n,result_info:o}=await C("GET",`/user/tokens?page=${t}&per_page=50`);if(e.push(...n),n.length===0||t>=(o?.total_pages??1))return{result:e}}}var rn=function(e,t,n,o){var a;t[0]=0;for(var r=1;r<t.length;r++){var s=t[r++],i=t[r]?(t[0]|=s?1:2,n[t[r++]]):t[++r];s===3?o[0]=i:s===4?o[1]=Object.assign(o[1]||{},i):s===5?(o[1]=o[1]||{})[t[++r]]=i:s===6?o[1][t[++r]]+=i+"":s?(a=e.apply(i,rn(e,i,n,["",null])),o.push(a),i[0]?t[0]|=2:(t[r-2]=0,t[r]=a)):o.push(i)}return o},on=new Map;function an(e){var t=on.get(this);return t||(t=new Map,on.set(this,t)),(t=rn(this,t.get(e)||(t.set(e,t=(function(n){for(var o,a,r=1,s="",i="",u=[0],p=function(f){r===1&&(f||(s=s.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,f,s):r===3&&(f||s)?(u.push(3,f,s),r=2):r===2&&s==="..."&&f?u.push(4,f,0):r===2&&s&&!f?u.push(5,0,!0,s):r>=5&&((s||!f&&r===5)&&(u.push(r,0,s,a),r=6),f&&(u.push(r,f,0,a),r=6)),s=""},d=0;d<n.length;d++){d&&(r===1&&p(),p(d));for(var m=0;m<n[d].length;m++)o=n[d][m],r===1?o==="<"?(p(),u=[u],r=3):s+=o:r===4?s==="--"&&o===">"?(r=1,s=""):s=o+s[0]:i?o===i?i="":s+=o:o==='"'||o==="'"?i=o:o===">"?(p(),r=1):r&&(o==="="?(r=5,a=s,s=""):o==="/"&&(r<5||n[d][m+1]===">")?(p(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(p(),r=2):s+=o),r===3&&s==="!--"&&(r=4,u=u[0])}return p(),u})(e)),t),arguments,[])).length>1?t:t[0]}var c=an.bind(Lt);function sn({zone:e,onActivated:t}){let[n,o]=h(!1),[a,r]=h(null),s=Jt(e);if(!s)return null;async function i(){o(!0),r(null);try{let u=Qt(await C("PUT",`/zones/${e.id}/activation_check`));u.activated?t():r({error:!1,message:u.message})}catch(u){r({error:!0,message:u.message})}finally{o(!1)}}return c`<section class="alert warn pending-zone" aria-labelledby="pending-heading" data-testid="pending-zone">
    <h2 id="pending-heading">${e.name} is pending</h2>
    <p>It is not served until you prove that you control the name. Publish this TXT record where the domain is served today, then check:</p>
    <dl>
      <dt>Name</dt><dd><code data-testid="txt-name">${s.txtName}</code></dd>
      <dt>Type</dt><dd><code>TXT</code></dd>
      <dt>Value</dt><dd><code data-testid="txt-value">${s.txtValue}</code></dd>
    </dl>
    <p>Or delegate ${e.name} to ${s.nameServers.join(", ")} (proves it only while no other account has the name pending).</p>
    <button type="button" class="primary" disabled=${n} onClick=${i}>${n?"Checking\u2026":"Check now"}</button>
    ${a?c`<p role="status" class=${a.error?"error":void 0} data-testid="activation-result">${a.message}</p>`:null}
  </section>`}var Ae=[{name:"A",code:1,api:!0,rdata:"a"},{name:"NS",code:2,api:!0,rdata:"name"},{name:"CNAME",code:5,api:!0,rdata:"name"},{name:"SOA",code:6,api:!1,rdata:"soa"},{name:"PTR",code:12,api:!0,rdata:"name"},{name:"HINFO",code:13,api:!1,rdata:"hinfo"},{name:"MX",code:15,api:!0,rdata:"mx"},{name:"TXT",code:16,api:!0,rdata:"txt"},{name:"RP",code:17,api:!1,rdata:"opaque"},{name:"AFSDB",code:18,api:!1,rdata:"opaque"},{name:"AAAA",code:28,api:!0,rdata:"aaaa"},{name:"LOC",code:29,api:!0,rdata:"loc"},{name:"SRV",code:33,api:!0,rdata:"srv"},{name:"NAPTR",code:35,api:!0,rdata:"naptr"},{name:"KX",code:36,api:!1,rdata:"opaque"},{name:"CERT",code:37,api:!0,rdata:"cert"},{name:"DNAME",code:39,api:!1,rdata:"name-uncompressed"},{name:"OPT",code:41,api:!1,rdata:"meta"},{name:"APL",code:42,api:!1,rdata:"opaque"},{name:"DS",code:43,api:!0,rdata:"ds"},{name:"SSHFP",code:44,api:!0,rdata:"sshfp"},{name:"IPSECKEY",code:45,api:!1,rdata:"opaque"},{name:"RRSIG",code:46,api:!1,rdata:"opaque"},{name:"NSEC",code:47,api:!1,rdata:"opaque"},{name:"DNSKEY",code:48,api:!0,rdata:"dnskey"},{name:"DHCID",code:49,api:!1,rdata:"opaque"},{name:"NSEC3",code:50,api:!1,rdata:"opaque"},{name:"NSEC3PARAM",code:51,api:!1,rdata:"opaque"},{name:"TLSA",code:52,api:!0,rdata:"tlsa"},{name:"SMIMEA",code:53,api:!0,rdata:"tlsa"},{name:"HIP",code:55,api:!1,rdata:"opaque"},{name:"CDS",code:59,api:!1,rdata:"ds"},{name:"CDNSKEY",code:60,api:!1,rdata:"dnskey"},{name:"OPENPGPKEY",code:61,api:!0,rdata:"openpgpkey"},{name:"CSYNC",code:62,api:!1,rdata:"opaque"},{name:"ZONEMD",code:63,api:!1,rdata:"opaque"},{name:"SVCB",code:64,api:!0,rdata:"svcb"},{name:"HTTPS",code:65,api:!0,rdata:"svcb"},{name:"SPF",code:99,api:!1,rdata:"txt"},{name:"NID",code:104,api:!1,rdata:"opaque"},{name:"L32",code:105,api:!1,rdata:"opaque"},{name:"L64",code:106,api:!1,rdata:"opaque"},{name:"LP",code:107,api:!1,rdata:"opaque"},{name:"EUI48",code:108,api:!1,rdata:"opaque"},{name:"EUI64",code:109,api:!1,rdata:"opaque"},{name:"NXNAME",code:128,api:!1,rdata:"meta"},{name:"TKEY",code:249,api:!1,rdata:"meta"},{name:"TSIG",code:250,api:!1,rdata:"meta"},{name:"IXFR",code:251,api:!1,rdata:"meta"},{name:"AXFR",code:252,api:!1,rdata:"meta"},{name:"MAILB",code:253,api:!1,rdata:"meta"},{name:"MAILA",code:254,api:!1,rdata:"meta"},{name:"ANY",code:255,api:!1,rdata:"meta"},{name:"URI",code:256,api:!0,rdata:"uri"},{name:"CAA",code:257,api:!0,rdata:"caa"}],wr=Object.freeze(Object.fromEntries(Ae.map(e=>[e.name,e.code]))),ln=Object.freeze(Ae.filter(e=>e.api).map(e=>e.name).sort());var Cr=new Map(Ae.map(e=>[e.code,e])),Er=new Map(Ae.map(e=>[e.name,e]));function at(e){if(!e.endsWith("."))return!1;let t=0;for(let n=e.length-2;n>=0&&e[n]==="\\";n--)t++;return t%2===0}var Ne=ln,st=new Set(["A","AAAA","CNAME"]),F=(e,t,n="")=>({key:e,label:t,kind:"text",hint:n}),se=(e,t,n="")=>({key:e,label:t,kind:"textarea",hint:n}),H=(e,t,n,o,a="")=>({key:e,label:t,kind:"number",min:n,max:o,hint:a}),Pe=(e,t,n)=>({key:e,label:t,kind:"select",options:n}),Z=(e,t,n)=>H(e,t,0,255,n),U=(e,t,n)=>H(e,t,0,65535,n),To=[H("data.lat_degrees","Latitude degrees",0,90),H("data.lat_minutes","Latitude minutes",0,59),H("data.lat_seconds","Latitude seconds",0,59.999),Pe("data.lat_direction","Latitude direction",["N","S"]),H("data.long_degrees","Longitude degrees",0,180),H("data.long_minutes","Longitude minutes",0,59),H("data.long_seconds","Longitude seconds",0,59.999),Pe("data.long_direction","Longitude direction",["E","W"]),H("data.altitude","Altitude (m)",-1e5,4284967295e-2),H("data.size","Size (m)",0,9e7),H("data.precision_horz","Horizontal precision (m)",0,9e7),H("data.precision_vert","Vertical precision (m)",0,9e7)],cn=[Z("data.usage","Usage","0\u20133 (3 = DANE-EE)"),Z("data.selector","Selector","0 = full certificate, 1 = public key"),Z("data.matching_type","Matching type","0 = exact, 1 = SHA-256, 2 = SHA-512"),se("data.certificate","Certificate association data","hex")],So={A:[F("content","IPv4 address","e.g. 192.0.2.1")],AAAA:[F("content","IPv6 address","e.g. 2001:db8::1")],CNAME:[F("content","Target","a host name")],NS:[F("content","Name server")],PTR:[F("content","Domain name")],TXT:[se("content","Text")],OPENPGPKEY:[se("content","Public key","base64")],MX:[U("priority","Priority","lower is preferred"),F("content","Mail server")],URI:[U("priority","Priority"),U("data.weight","Weight"),F("data.target","Target URI")],SRV:[F("srv.service","Service","e.g. _sip"),Pe("srv.protocol","Protocol",["_tcp","_udp","_tls"]),U("data.priority","Priority"),U("data.weight","Weight"),U("data.port","Port"),F("data.target","Target")],CAA:[Z("data.flags","Flags","0, or 128 = critical"),Pe("data.tag","Tag",["issue","issuewild","iodef","issuemail","issuevmc"]),F("data.value","Value","e.g. letsencrypt.org")],HTTPS:[U("data.priority","Priority","0 = alias mode"),F("data.target","Target",". = the owner name"),F("data.value","Parameters",'e.g. alpn="h2,h3" ipv4hint=192.0.2.1')],SVCB:[U("data.priority","Priority","0 = alias mode"),F("data.target","Target",". = the owner name"),F("data.value","Parameters",'e.g. alpn="h2" port=8443')],TLSA:cn,SMIMEA:cn,SSHFP:[Z("data.algorithm","Algorithm","1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519"),Z("data.type","Fingerprint type","1 SHA-1, 2 SHA-256"),F("data.fingerprint","Fingerprint","hex")],DS:[U("data.key_tag","Key tag"),Z("data.algorithm","Algorithm"),Z("data.digest_type","Digest type","2 = SHA-256"),se("data.digest","Digest","hex")],DNSKEY:[U("data.flags","Flags","256 ZSK, 257 KSK"),Z("data.protocol","Protocol","always 3"),Z("data.algorithm","Algorithm"),se("data.public_key","Public key","base64")],CERT:[U("data.type","Certificate type"),U("data.key_tag","Key tag"),Z("data.algorithm","Algorithm"),se("data.certificate","Certificate","base64")],NAPTR:[U("data.order","Order"),U("data.preference","Preference"),F("data.flags","Flags","e.g. U"),F("data.service","Service","e.g. E2U+sip"),F("data.regex","Regular expression"),F("data.replacement","Replacement",". when a regex is used")],LOC:To},wo={"srv.protocol":"_tcp","data.tag":"issue","data.lat_direction":"N","data.long_direction":"E","data.flags":""};function ee(e){return So[e]??[F("content","Content")]}function he(e,t){return e===t?"@":e.endsWith(`.${t}`)?e.slice(0,-t.length-1):e}function Le(e){let t={type:e,name:"",ttl:"1",proxied:!1,comment:""};for(let n of ee(e))t[n.key]=wo[n.key]??(n.kind==="select"?n.options[0]:"");return e==="CAA"&&(t["data.flags"]="0"),t}function dn(e,t){let n={...Le(e.type),name:he(e.name,t),ttl:String(e.ttl),proxied:e.proxied,comment:e.comment??""};for(let o of ee(e.type))if(o.key==="content")n.content=e.content;else if(o.key==="priority")n.priority=e.priority===void 0?"":String(e.priority);else if(o.key.startsWith("data.")){let a=e.data?.[o.key.slice(5)];n[o.key]=a==null?"":String(a)}if(e.type==="SRV"){let[o="",a="_tcp",...r]=n.name.split(".");n["srv.service"]=o,n["srv.protocol"]=a,n.name=r.length===0?"@":r.join(".")}return n}function Co(e,t){if(e.kind!=="number")return t;if(t==="")return;let n=Number(t);return Number.isFinite(n)?n:t}function un(e){let t=e.type,n={type:t,name:e.name.trim()||"@",ttl:Number(e.ttl)};st.has(t)&&(n.proxied=!!e.proxied),e.comment?.trim()&&(n.comment=e.comment.trim());let o={},a=!1;for(let r of ee(t)){let s=Co(r,String(e[r.key]??"").trim());r.key==="content"?n.content=s:r.key==="priority"?n.priority=s:r.key.startsWith("data.")&&(a=!0,s!==void 0&&s!==""&&(o[r.key.slice(5)]=s))}if(t==="SRV"){let r=n.name==="@"?"":`.${n.name}`;n.name=`${e["srv.service"].trim()}.${e["srv.protocol"]}${r}`}return a&&(n.data=o),n}function X(e){return`${e.type} ${e.name} ${it(e)?`${e.priority} `:""}${e.content}`}function it(e){return e.priority!==void 0&&(e.type==="MX"||e.type==="URI"||e.type==="SRV")}var Eo=0,Ao=e=>`${e}-${++Eo}`;function V({field:e,value:t,error:n,onInput:o,disabled:a,idPrefix:r="f"}){let s=z(Ao(r)).current,i=`${s}-hint`,u=`${s}-err`,p=[e.hint?i:"",n?u:""].filter(Boolean).join(" ")||void 0,d={id:s,name:e.key,disabled:a,"aria-invalid":n?"true":void 0,"aria-describedby":p},m=l=>o(e.key,l.currentTarget.value),f;if(e.kind==="select")f=c`<select ...${d} value=${t} onChange=${m}>${e.options.map(l=>typeof l=="string"?c`<option value=${l}>${l}</option>`:c`<option value=${l.value}>${l.label}</option>`)}</select>`;else if(e.kind==="textarea")f=c`<textarea ...${d} rows="3" value=${t} onInput=${m}></textarea>`;else{let l=e.kind==="number";f=c`<input ...${d} type=${l?"number":"text"} inputmode=${l?"decimal":void 0} step=${l?"any":void 0} min=${e.min} max=${e.max} value=${t} onInput=${m} autocomplete="off" spellcheck="false" />`}return c`<div class=${`field${n?" has-error":""}`} data-field=${e.key}>
    <label for=${s}>${e.label}</label>
    ${f}
    ${e.hint?c`<small id=${i} class="hint">${e.hint}</small>`:null}
    ${n?c`<small id=${u} class="error" role="alert">${n}</small>`:null}
  </div>`}function B({title:e,onClose:t,children:n,wide:o}){let a=z(null);return re(()=>{let r=document.activeElement,s=a.current;return s.showModal(),s.querySelector("[autofocus], input, select, textarea, button")?.focus(),()=>{s.open&&s.close(),r instanceof HTMLElement&&r.focus()}},[]),c`<dialog ref=${a} class=${o?"wide":""} aria-labelledby="modal-title" onCancel=${r=>(r.preventDefault(),t())}>
    <h2 id="modal-title">${e}</h2>
    ${n}
  </dialog>`}function Re({info:e,onPage:t,label:n}){if(!e)return null;let o=Math.max(1,e.total_pages??1);return c`<nav class="pager" aria-label=${n}>
    <button type="button" onClick=${()=>t(1)} disabled=${e.page<=1} aria-label="First page">«</button>
    <button type="button" onClick=${()=>t(e.page-1)} disabled=${e.page<=1}>‹ Previous</button>
    <span class="page-info" aria-live="polite">Page ${e.page.toLocaleString("en")} of ${o.toLocaleString("en")} · ${e.total_count.toLocaleString("en")} total</span>
    <button type="button" onClick=${()=>t(e.page+1)} disabled=${e.page>=o}>Next ›</button>
    <button type="button" onClick=${()=>t(o)} disabled=${e.page>=o} aria-label="Last page">»</button>
  </nav>`}function pn({messages:e}){return!e||e.length===0?null:c`<div class="alert error" role="alert"><ul>${e.map(t=>c`<li>${t}</li>`)}</ul></div>`}var fn=e=>e?`${X(e)} (TTL ${e.ttl===1?"auto":e.ttl}${e.proxied?", proxied":""})`:"\u2014";function mn({zone:e,version:t}){let[n,o]=h(1),[a,r]=h(null),[s,i]=h(null),[u,p]=h(()=>new Map([["dev","local dev token"]]));return I(()=>{Ee().then(({result:d})=>p(m=>new Map([...m,...d.map(f=>[f.id,f.name])]))).catch(()=>{})},[]),I(()=>{C("GET",`/zones/${e.id}/dns_records/audit?page=${n}&per_page=25`).then(({result:d,result_info:m})=>(r({rows:d,info:m}),i(null))).catch(d=>i(d.message))},[e.id,n,t]),c`<section aria-labelledby="audit-heading">
    <h2 id="audit-heading">Audit log</h2>
    ${s?c`<p class="alert error" role="alert">${s}</p>`:null}
    ${a?c`<div class="table-wrap"><table class="audit">
          <thead><tr><th>Seq</th><th>When</th><th>Token</th><th>Action</th><th>Before</th><th>After</th></tr></thead>
          <tbody>
            ${a.rows.length===0?c`<tr><td colspan="6" class="empty">No changes yet.</td></tr>`:null}
            ${a.rows.map(d=>c`<tr>
                <td>${d.seq}</td>
                <td><time datetime=${d.when}>${new Date(d.when).toLocaleString()}</time></td>
                <td>${d.token_id===null?"\u2014":u.has(d.token_id)?c`${u.get(d.token_id)} <span class="mono muted">${d.token_id}</span>`:c`<span class="mono">${d.token_id}</span>`}</td>
                <td><span class=${`action ${d.action}`}>${d.action}</span></td>
                <td class="content">${fn(d.before)}</td>
                <td class="content">${fn(d.after)}</td>
              </tr>`)}
          </tbody>
        </table></div>
        <${Re} info=${a.info} label="Audit log pages" onPage=${o} />`:c`<p aria-busy="true">Loading…</p>`}
  </section>`}var A=class extends Error{line;column;reason;constructor(t,n){super(`line ${n.line}, column ${n.column}: ${t}`),this.name="ZoneFileError",this.line=n.line,this.column=n.column,this.reason=t}};var Ie=10,lt=13,ct=32,dt=9,ut=34,_n=59,$n=40,gn=41,hn=92;function Po(e){return e>=48&&e<=57}function No(e){return e===ct||e===dt||e===Ie||e===lt||e===_n||e===$n||e===gn||e===ut}var Oe={maxChars:262144,maxTokens:1e4};function ie(e){return{line:e.line,column:e.column+e.text.length}}function*yn(e,t=Oe){let n=e.length,o=e.charCodeAt(0)===65279?1:0,a=1,r=o,s=[],i=[],u=!1,p,d=!0,m=T=>({line:a,column:T-r+1}),f=-1,l={line:1,column:1},_=1/0,g=T=>{f>=0||(f=T,l=m(T),_=T+t.maxChars)},y=()=>{throw new A(`a record is longer than ${t.maxChars} characters (it starts here)`,l)},w=T=>{if(i.length>=t.maxTokens)throw new A(`a record has more than ${t.maxTokens} tokens (it starts here)`,l);i.push(T)},$=T=>{let k=T+1<n?e.charCodeAt(T+1):-1;if(k===-1||k===Ie||k===lt)throw new A("bad escape sequence",m(T));if(!Po(k))return 2;let x=e.slice(T+1,T+4);if(!/^\d{3}$/.test(x)||Number(x)>255)throw new A("bad escape sequence",m(T));return 4},v=T=>{let k=T+1;for(;;){k>_&&y();let x=k<n?e.charCodeAt(k):-1;if(x===-1||x===Ie)throw new A("unterminated quoted string",m(T));if(x===ut)return k;k+=x===hn?$(k):1}};for(;o<n;){let T=e.charCodeAt(o);if(d&&(d=!1,s.length===0&&i.length===0&&(u=T===ct||T===dt)),T===Ie)s.length===0&&(i.length>0&&(yield p===void 0?{tokens:i,blankOwner:u}:{tokens:i,blankOwner:u,comment:p},i=[]),f=-1,_=1/0),p=void 0,a++,o++,r=o,d=!0;else if(T===ct||T===dt||T===lt)o++;else if(T===_n){let k=e.indexOf(`
`,o);if(k===-1&&(k=n),f>=0){k>_&&y();let x=e.slice(o+1,k).trim();p=x===""?void 0:x}o=k}else if(T===$n)g(o),s.push(m(o)),o++;else if(T===gn){if(!s.pop())throw new A("unbalanced parenthesis",m(o));o++}else if(T===ut){g(o);let k=v(o);w({text:e.slice(o,k+1),line:a,column:o-r+1,quoted:!0}),o=k+1}else{g(o);let k=o;for(;k<n;){k>_&&y();let x=e.charCodeAt(k);if(No(x))break;k+=x===hn?$(k):1}w({text:e.slice(o,k),line:a,column:o-r+1,quoted:!1}),o=k}}let S=s.pop();if(S)throw new A("unbalanced parenthesis",S);i.length>0&&(yield p===void 0?{tokens:i,blankOwner:u}:{tokens:i,blankOwner:u,comment:p})}var Lo={w:604800,d:86400,h:3600,m:60,s:1},Ro=/^(?:\d+[wdhms])+$/i,Io=/(\d+)([wdhms])/gi;function le(e){let t;if(/^\d+$/.test(e))t=Number(e);else if(Ro.test(e)){t=0;for(let[,n,o]of e.matchAll(Io))t+=Number(n)*(Lo[o.toLowerCase()]??0)}else return;return t<=2147483647?t:void 0}var Oo=new Set(["CH","CHAOS","HS","HESIOD","CS","CSNET","NONE","ANY"]),Do=/^[A-Z][A-Z0-9-]*$/;function Fo(e){return e==="IN"||Oo.has(e)||/^CLASS\d+$/.test(e)}function pt(e,t){let n=t,o,a=!1;for(;;){let u=e[n];if(!u||u.quoted)break;let p=u.text.toUpperCase(),d=u.text.charCodeAt(0);if(o===void 0&&d>=48&&d<=57){if(o=le(u.text),o===void 0)throw new A(`bad TTL "${u.text}"`,u)}else if(!a&&Fo(p)){if(p!=="IN"&&p!=="CLASS1")throw new A(`unsupported class ${u.text}`,u);a=!0}else break;n++}let r=e[n];if(!r)throw new A("missing record type",ie(e[n-1]));let s=r.text.toUpperCase();if(r.quoted||!Do.test(s))throw new A(`bad record type "${r.text}"`,r);if(n+1>=e.length)throw new A("missing rdata",ie(r));let i=e.slice(n+1);return o===void 0?{type:s,rdata:i}:{ttl:o,type:s,rdata:i}}function Mo(e,t){return t.quoted&&!e.quoted&&e.text.endsWith("=")&&e.line===t.line&&e.column+e.text.length===t.column}var bn=new Set(["SVCB","HTTPS"]);function ft(e,t){let n=bn.has(t);return e.map((o,a)=>a===0||n&&Mo(e[a-1],o)?"":" ")}function vn(e,t){if(bn.has(t)){let o=ft(e,t);return e.map((a,r)=>o[r]+a.text).join("")}let n=e[0]?.text??"";for(let o=1;o<e.length;o++)n+=" "+e[o].text;return n}var mt=4294967295,qo=255;function kn(e){let t=/^(\d+)-(\d+)(?:\/(\d+))?$/.exec(e.text),n=Number(t?.[1]),o=Number(t?.[2]),a=t?.[3]===void 0?1:Number(t[3]);if(!t||e.quoted||n>o||o>mt||a<1||a>mt)throw new A(`bad $GENERATE range "${e.text}"`,e);return{start:n,stop:o,step:a,count:Math.floor((o-n)/a)+1}}function ht(e,t){let{text:n}=e,o=[],a="",r=0;for(;r<n.length;){let s=n[r],i=n[r+1];if(s==="\\"&&i!==void 0)a+=i==="$"?"$":s+i,r+=2;else if(s==="$"&&i==="$")a+="$",r+=2;else if(s==="$"){let u={line:e.line,column:e.column+r},p={offset:0,width:0,base:"d"};if(r++,i==="{"){let f=n.indexOf("}",r),l=/^([+-]?\d+)(?:,(\d+)(?:,([doxXnN]))?)?$/.exec(n.slice(r+1,f));if(f===-1||!l||Number(l[2]??0)>qo)throw new A("bad $GENERATE modifier",u);p={offset:Number(l[1]),width:Number(l[2]??0),base:l[3]??"d"},r=f+1}let d=t.start+p.offset,m=t.stop+p.offset;if(d<0||m>mt)throw new A("$GENERATE value out of range",u);a!==""&&o.push(a),a="",o.push(p)}else a+=s,r++}return a!==""&&o.push(a),o}function zo(e,t,n){let o="",a=e,r=t;do{let s=(a%16).toString(16);o+=n?s.toUpperCase():s,a=Math.floor(a/16),r>0&&r--,(r>0||a!==0)&&(o+=".",r>0&&r--)}while(a!==0||r>0);return o}function Uo(e,{width:t,base:n}){switch(n){case"n":case"N":return zo(e,t,n==="N");case"o":return e.toString(8).padStart(t,"0");case"x":return e.toString(16).padStart(t,"0");case"X":return e.toString(16).toUpperCase().padStart(t,"0");default:return e.toString(10).padStart(t,"0")}}function De(e,t){let n="";for(let o of e)n+=typeof o=="string"?o:Uo(t+o.offset,o);return n}function xn(e){if(e===""||e.startsWith("."))return!1;for(let t=0;t<e.length;t++){let n=e[t];if(n==="\\")t++;else if(n==="."&&(t+1===e.length||e[t+1]==="."))return!1}return!0}function Fe(e,t){if(e==="@")return t;if(e===".")return"";if(at(e)){let o=e.slice(0,-1);return xn(o)?o.toLowerCase():void 0}if(!xn(e))return;let n=e.toLowerCase();return t===""?n:`${n}.${t}`}function _t(e){let t=e.trim(),n=Fe(t===""||t==="."?".":t,"");if(n===void 0||t==="@")throw new TypeError(`invalid origin "${e}"`);return n}function $t(e){return e===""?".":e}var Vo=1e6,gt=class{entries=[];origin;max;fallbackTtl;zoneTtl;lastTtl;previousOwner;constructor(t){this.origin=_t(t.origin),this.max=t.maxRecords??Vo,this.fallbackTtl=t.defaultTtl}line(t){let n=t.tokens[0];!t.blankOwner&&!n.quoted&&n.text.startsWith("$")?this.directive(t):this.record(t)}record(t){let n=t.tokens[0],o;if(t.blankOwner){if(this.previousOwner===void 0)throw new A("no previous owner name",n);o=this.previousOwner}else o=this.name(n),this.previousOwner=o;let a=pt(t.tokens,t.blankOwner?0:1),r=this.resolveTtl(a,n);this.push(o,r,a.type,vn(a.rdata,a.type),t.comment,n)}directive(t){let[n,...o]=t.tokens;switch(n.text.toUpperCase()){case"$ORIGIN":this.origin=this.name(this.single(n,o,"a name"));return;case"$TTL":{let a=this.single(n,o,"a value"),r=le(a.text);if(r===void 0||a.quoted)throw new A(`bad TTL "${a.text}"`,a);this.zoneTtl=r;return}case"$GENERATE":this.generate(t);return;case"$INCLUDE":throw new A("$INCLUDE directive not allowed",n);default:throw new A(`unknown directive ${n.text}`,n)}}generate(t){let[n,o,a]=t.tokens;if(!o||!a)throw new A("$GENERATE needs a range, owner, type and rdata",ie(n));let r=kn(o),s=pt(t.tokens,3),i=this.resolveTtl(s,n);this.entries.length+r.count>this.max&&this.tooMany(n);let u=ht(a,r),p=s.rdata.map(m=>ht(m,r)),d=ft(s.rdata,s.type);for(let m=r.start;m<=r.stop;m+=r.step){let f=this.name({...a,text:De(u,m)}),l=De(p[0],m);for(let _=1;_<p.length;_++)l+=d[_]+De(p[_],m);this.push(f,i,s.type,l,t.comment,n)}}single(t,n,o){let[a,r]=n;if(!a)throw new A(`${t.text} needs ${o}`,ie(t));if(r)throw new A(`unexpected "${r.text}"`,r);return a}name(t){if(t.quoted)throw new A("name cannot be a quoted string",t);let n=Fe(t.text,this.origin);if(n===void 0)throw new A(`bad name "${t.text}"`,t);return n}resolveTtl(t,n){if(t.ttl!==void 0)return this.lastTtl=t.ttl,t.ttl;if(this.zoneTtl!==void 0)return this.zoneTtl;if(this.lastTtl!==void 0)return this.lastTtl;let o=t.type==="SOA"?t.rdata[6]:void 0,a=o&&!o.quoted?le(o.text):void 0;if(a!==void 0)return this.zoneTtl=a,a;if(this.fallbackTtl!==void 0)return this.fallbackTtl;throw new A("no TTL specified",n)}push(t,n,o,a,r,s){this.entries.length>=this.max&&this.tooMany(s);let i={name:$t(t),ttl:n,class:"IN",type:o,rdata:a,origin:$t(this.origin),line:s.line};r!==void 0&&(i.comment=r),this.entries.push(i)}tooMany(t){throw new A(`too many records (limit ${this.max})`,t)}};function yt(e,t){let n=new gt(t),o={maxChars:t.maxLineChars??Oe.maxChars,maxTokens:t.maxLineTokens??Oe.maxTokens};for(let a of yn(e,o))n.line(a);return n.entries}function Tn(e,t){let n=yt(e,{origin:t,defaultTtl:1}),o=[],a=[];for(let r of n)r.type==="SOA"||r.type==="NS"&&r.name===t?a.push({...r,why:r.type==="SOA"?"the zone keeps its own SOA":"the zone keeps its own apex NS"}):o.push(r);return{create:o,skipped:a}}var bt=500;function Sn({zone:e,readOnly:t,onChanged:n,onForbidden:o,notify:a}){let[r,s]=h(null),[i,u]=h(null),[p,d]=h(null),[m,f]=h(!1),[l,_]=h(null),[g,y]=h(null),[w,$]=h(!1);async function v(k){let x=k.currentTarget.files?.[0]??null;if(s(x),u(null),d(null),_(null),y(null),!!x)try{u(Tn(await x.text(),e.name))}catch(N){d(N.message)}}async function S(){$(!0),y(null);let k=new FormData;k.append("file",r,r.name),m&&k.append("proxied","true");try{let{result:x,messages:N}=await C("POST",`/zones/${e.id}/dns_records/import`,k);_({...x,messages:N??[]}),u(null),a(`Imported ${x.recs_added} records.`),n()}catch(x){x.forbidden&&o(x),y(`${x.message} \u2014 nothing was imported.`)}finally{$(!1)}}async function T(){try{let k=await tn(`/zones/${e.id}/dns_records/export`),x=URL.createObjectURL(new Blob([k],{type:"text/plain"})),N=Object.assign(document.createElement("a"),{href:x,download:`${e.name}.zone`});document.body.append(N),N.click(),N.remove(),setTimeout(()=>URL.revokeObjectURL(x),1e3),a(`Exported ${e.name}.zone`)}catch(k){a(`Export failed: ${k.message}`,!0)}}return c`<section aria-labelledby="ie-heading">
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
          <div class="field check"><label><input type="checkbox" checked=${m} onChange=${k=>f(k.currentTarget.checked)} /> Proxy imported A, AAAA and CNAME records</label></div>
          ${p?c`<p class="alert error" role="alert">Cannot read the file: ${p}</p>`:null}
          ${i?c`<div class="preview" aria-labelledby="preview-heading">
                <h4 id="preview-heading">Preview: ${i.create.length} record${i.create.length===1?"":"s"} to create${i.skipped.length?`, ${i.skipped.length} skipped`:""}</h4>
                <div class="table-wrap"><table>
                  <thead><tr><th>Line</th><th>Type</th><th>Name</th><th>TTL</th><th>Content</th></tr></thead>
                  <tbody>
                    ${i.create.slice(0,bt).map(k=>c`<tr><td>${k.line}</td><td>${k.type}</td><td>${k.name}</td><td>${k.ttl}</td><td class="content">${k.rdata}</td></tr>`)}
                    ${i.skipped.map(k=>c`<tr class="muted"><td>${k.line}</td><td>${k.type}</td><td>${k.name}</td><td>${k.ttl}</td><td>skipped: ${k.why}</td></tr>`)}
                  </tbody>
                </table></div>
                ${i.create.length>bt?c`<p>… and ${i.create.length-bt} more.</p>`:null}
                <p class="muted">Records identical to existing ones are skipped by the server and reported after the import.</p>
                <button type="button" class="primary" disabled=${w||i.create.length===0} onClick=${S}>Import ${i.create.length} records</button>
              </div>`:null}
          ${g?c`<p class="alert error" role="alert">${g}</p>`:null}
          ${l?c`<div class="alert ok" role="status">
                <p>Imported ${l.recs_added} of ${l.total_records_parsed} records parsed.</p>
                ${l.messages.length?c`<ul>${l.messages.map(k=>c`<li>${k.message}</li>`)}</ul>`:null}
              </div>`:null}
        </div>`}
  </section>`}function wn({onLogin:e}){let[t,n]=h(""),[o,a]=h(null),[r,s]=h(null),i=z(null);re(()=>i.current?.focus(),[]),I(()=>{nn().then(s)},[]);async function u(p){a(null);try{await C("GET","/user/tokens/verify",void 0,p),e(p)}catch(d){a(d.status===403?"That token is not valid (unknown, revoked or expired).":d.message),i.current?.focus()}}return c`<main class="login">
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
  </main>`}function Cn({zone:e,version:t}){let[n,o]=h(null),[a,r]=h(0);if(I(()=>{let u=!1,p;return C("GET",`/zones/${e.id}/propagation`).then(({result:d})=>{u||(o(d),d.status!=="pending"&&d.built_seq<d.committed_seq&&(p=setTimeout(()=>r(m=>m+1),1e3)))}).catch(()=>!u&&o(null)),()=>(u=!0,clearTimeout(p))},[e.id,t,a]),!n)return null;if(n.status==="pending")return c`<span class="pill behind" role="status" title=${n.message??""} data-testid="propagation">Pending · not served</span>`;let s=n.built_seq<n.committed_seq,i=`Committed change ${n.committed_seq}, built ${n.built_seq}${n.built_at?` at ${n.built_at}`:""}`;return c`<span class=${`pill${s?" behind":" live"}${n.last_error?" failed":""}`} role="status" title=${i} data-testid="propagation">
    ${s?`Propagating: built ${n.built_seq} of ${n.committed_seq} (${Math.round(n.lag_ms/100)/10} s)`:`Live \xB7 change ${n.committed_seq} built`}
    ${n.last_error?` \xB7 last build error: ${n.last_error.message}`:""}
  </span>`}function En({zone:e}){let[t,n]=h(`www.${e.name}`),[o,a]=h("A"),[r,s]=h(null);async function i(u){u.preventDefault();let p=new URLSearchParams({name:t.trim(),type:o.trim()||"A"}),d=await fetch(`/dns-query?${p}`,{headers:{accept:"application/dns-json"}});s(d.ok?JSON.stringify(await d.json(),null,2):`HTTP ${d.status}: ${await d.text()}`)}return c`<section aria-labelledby="query-heading">
    <h2 id="query-heading">Query over DNS-over-HTTPS</h2>
    <form class="toolbar" onSubmit=${i}>
      <div class="field inline"><label for="q-name">Name</label><input id="q-name" value=${t} onInput=${u=>n(u.currentTarget.value)} /></div>
      <div class="field inline"><label for="q-type">Type</label><input id="q-type" size="8" value=${o} onInput=${u=>a(u.currentTarget.value)} /></div>
      <button type="submit" class="primary">Resolve</button>
    </form>
    ${r?c`<pre class="card mono" aria-label="Answer" role="status">${r}</pre>`:null}
  </section>`}function An(e,t){let n=[],o=[],a=[];if(e.kind==="delete"){for(let i of t)n.push(i),o.push(`Delete ${X(i)}`);return{title:`Delete ${n.length} record${n.length===1?"":"s"}`,body:{deletes:n.map(i=>({id:i.id}))},items:n,lines:o,unchanged:a,key:"deletes"}}let r=[];for(let i of t)e.kind==="proxy"?i.proxiable?i.proxied===e.on?a.push(`${X(i)} \u2014 already ${e.on?"proxied":"DNS only"}`):(n.push(i),r.push({id:i.id,proxied:e.on}),o.push(`${e.on?"Proxy":"Stop proxying"} ${X(i)}`)):a.push(`${X(i)} \u2014 cannot be proxied`):e.kind==="ttl"&&(i.ttl===e.ttl?a.push(`${X(i)} \u2014 TTL already ${te(e.ttl)}`):(n.push(i),r.push({id:i.id,ttl:e.ttl}),o.push(`TTL ${te(i.ttl)} \u2192 ${te(e.ttl)}: ${X(i)}`)));return{title:`${e.kind==="ttl"?`Set TTL to ${te(e.ttl)} on`:e.on?"Turn proxy on for":"Turn proxy off for"} ${n.length} record${n.length===1?"":"s"}`,body:{patches:r},items:n,lines:o,unchanged:a,key:"patches"}}function te(e){return e===1?"Auto":`${e} s`}function Pn(e,t){return e.errors.map(n=>{let o=/^\/(deletes|patches|puts|posts)\/(\d+)/.exec(n.source?.pointer??""),a=o?t.items[Number(o[2])]:void 0;return`${o?`${n.source.pointer}${a?` (${X(a)})`:""}: `:""}${n.message} (code ${n.code})`})}var Ho=new Set([9005,9006,9007,9009,9036,...Array.from({length:16},(e,t)=>9121+t)]),Zo=new Set([81053,81054,81058]);function jo(e,t){let{code:n,message:o}=e,a=/\bdata\.([a-z_]+)/.exec(o);return a&&t.has(`data.${a[1]}`)?`data.${a[1]}`:n===9008||n===9100?t.has("priority")?"priority":t.has("data.priority")?"data.priority":"_form":n===9021?"ttl":n===9041?"proxied":n===9150?"comment":Zo.has(n)?"name":Ho.has(n)&&t.has("content")?"content":n===9e3&&/\bname\b/i.test(o)?"name":/\bcontent\b/i.test(o)&&t.has("content")?"content":"_form"}function Me(e,t){let n=new Set(t),o={};for(let a of e.errors??[{code:0,message:String(e.message)}]){let r=jo(a,n);o[r]=o[r]?`${o[r]}; ${a.message}`:a.message}return o}var Xo={key:"ttl",label:"TTL (seconds)",kind:"number",min:1,max:86400,hint:"1 = automatic, else 60\u201386400"},Go={key:"comment",label:"Comment",kind:"text",hint:"optional"};function Nn({zone:e,record:t,onSaved:n,onCancel:o,onForbidden:a}){let[r,s]=h(()=>t?dn(t,e.name):Le("A")),[i,u]=h({}),[p,d]=h(!1),m=z(null),f=r.type,l={key:"name",label:f==="SRV"?"Host (@ for the zone apex)":"Name",kind:"text",hint:`relative to ${e.name}; @ for the apex`},_=ee(f),g=($,v)=>s(S=>({...S,[$]:v})),y=$=>{let v=Le($.currentTarget.value);s(S=>({...v,name:S.name,ttl:S.ttl,comment:S.comment})),u({})};async function w($){$.preventDefault(),d(!0),u({});let v=un(r);try{let S=`/zones/${e.id}/dns_records${t?`/${t.id}`:""}`,{result:T}=await C(t?"PUT":"POST",S,v);n(T,t?"Saved":"Added")}catch(S){S.forbidden&&a(S);let T=Me(S,["name","ttl","proxied","comment",..._.map(k=>k.key)]);u(T),d(!1),requestAnimationFrame(()=>m.current?.querySelector('[aria-invalid="true"], .form-error')?.focus())}}return c`<form ref=${m} class="record-form" onSubmit=${w} aria-label=${t?"Edit record":"Add record"} novalidate>
    <div class="field">
      <label for="record-type">Type</label>
      <select id="record-type" value=${f} onChange=${y} disabled=${!!t}>
        ${Ne.map($=>c`<option value=${$}>${$}</option>`)}
      </select>
    </div>
    ${f==="SRV"?_.slice(0,2).map($=>c`<${V} field=${$} value=${r[$.key]} error=${i[$.key]} onInput=${g} />`):null}
    <${V} field=${l} value=${r.name} error=${i.name} onInput=${g} />
    ${(f==="SRV"?_.slice(2):_).map($=>c`<${V} field=${$} value=${r[$.key]} error=${i[$.key]} onInput=${g} />`)}
    <${V} field=${Xo} value=${r.ttl} error=${i.ttl} onInput=${g} />
    ${st.has(f)?c`<div class=${`field check${i.proxied?" has-error":""}`} data-field="proxied">
          <label><input type="checkbox" checked=${r.proxied} onChange=${$=>g("proxied",$.currentTarget.checked)} /> Proxied</label>
          ${i.proxied?c`<small class="error" role="alert">${i.proxied}</small>`:null}
        </div>`:null}
    <${V} field=${Go} value=${r.comment} error=${i.comment} onInput=${g} />
    ${i._form?c`<p class="alert error form-error" role="alert" tabindex="-1">${i._form}</p>`:null}
    <div class="actions">
      <button type="submit" class="primary" disabled=${p}>${t?"Save record":"Add record"}</button>
      <button type="button" onClick=${o}>Cancel</button>
    </div>
  </form>`}var Wo=[["type","Type"],["name","Name"],["content","Content"],["ttl","TTL"],["proxied","Proxy status"]],Yo=[25,50,100,250];function Ln({zone:e,readOnly:t,onChanged:n,onForbidden:o,notify:a}){let[r,s]=h({search:"",type:"",order:"type",direction:"asc",page:1,perPage:50}),[i,u]=h(""),[p,d]=h({records:[],info:null}),[m,f]=h(!1),[l,_]=h(null),[g,y]=h(()=>new Map),[w,$]=h(null),[v,S]=h(null),[T,k]=h(null),[x,N]=h(null),[j,E]=h("300"),L=z(0),q=ae(async()=>{let b=++L.current;f(!0);let P=new URLSearchParams({page:String(r.page),per_page:String(r.perPage),order:r.order,direction:r.direction});r.type&&P.set("type",r.type),r.search&&P.set("search",r.search);try{let{result:G,result_info:W}=await C("GET",`/zones/${e.id}/dns_records?${P}`);if(b!==L.current)return;d({records:G,info:W}),_(null)}catch(G){b===L.current&&_(G.message)}finally{b===L.current&&f(!1)}},[e.id,r]);I(()=>{q()},[q]),I(()=>{y(new Map),$(null)},[e.id]);let M=async b=>{a(b),n(),await q()},oo=b=>s(P=>({...P,order:b,direction:P.order===b&&P.direction==="asc"?"desc":"asc",page:1})),ro=(b,P)=>y(G=>{let W=new Map(G);return P?W.set(b.id,b):W.delete(b.id),W}),St=p.records.map(b=>b.id),ao=St.length>0&&St.every(b=>g.has(b)),so=b=>y(P=>{let G=new Map(P);for(let W of p.records)b?G.set(W.id,W):G.delete(W.id);return G}),$e=b=>{N(null),k(An(b,[...g.values()]))};async function io(){try{await C("POST",`/zones/${e.id}/dns_records/batch`,T.body);let b=T.title;k(null),y(new Map),await M(`Done: ${b}.`)}catch(b){b.forbidden&&o(b),N(Pn(b,T))}}async function lo(b){try{await C("PATCH",`/zones/${e.id}/dns_records/${b.id}`,{proxied:!b.proxied}),await M(`${b.name}: proxy ${b.proxied?"off":"on"}.`)}catch(P){P.forbidden&&o(P),a(`${b.name}: ${P.message}`,!0)}}let co=p.info,wt=g.size;return c`<section aria-labelledby="records-heading">
    <div class="section-head">
      <h2 id="records-heading">DNS records</h2>
      ${t?null:c`<button type="button" class="primary" onClick=${()=>S({record:null})}>Add record</button>`}
    </div>
    <form class="toolbar" role="search" onSubmit=${b=>(b.preventDefault(),s(P=>({...P,search:i.trim(),page:1})))}>
      <div class="field inline">
        <label for="record-search">Search</label>
        <input id="record-search" type="search" placeholder="name, content or comment" value=${i} onInput=${b=>u(b.currentTarget.value)} />
      </div>
      <button type="submit">Search</button>
      <div class="field inline">
        <label for="type-filter">Type</label>
        <select id="type-filter" value=${r.type} onChange=${b=>s(P=>({...P,type:b.currentTarget.value,page:1}))}>
          <option value="">All types</option>
          ${Ne.map(b=>c`<option value=${b}>${b}</option>`)}
        </select>
      </div>
      <div class="field inline">
        <label for="page-size">Per page</label>
        <select id="page-size" value=${String(r.perPage)} onChange=${b=>s(P=>({...P,perPage:Number(b.currentTarget.value),page:1}))}>
          ${Yo.map(b=>c`<option value=${String(b)}>${b}</option>`)}
        </select>
      </div>
    </form>

    ${wt>0&&!t?c`<div class="bulk-bar" role="region" aria-label="Bulk actions">
          <strong>${wt} selected</strong>
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
      <table class="records" aria-busy=${m?"true":"false"} aria-describedby="records-heading">
        <thead>
          <tr>
            ${t?null:c`<th class="sel"><input type="checkbox" aria-label="Select all records on this page" checked=${ao} onChange=${b=>so(b.currentTarget.checked)} /></th>`}
            ${Wo.map(([b,P])=>c`<th aria-sort=${r.order===b?r.direction==="asc"?"ascending":"descending":"none"} class=${`col-${b}`}>
                <button type="button" class="sort" onClick=${()=>oo(b)}>${P}${r.order===b?r.direction==="asc"?" \u25B2":" \u25BC":""}</button>
              </th>`)}
            ${t?null:c`<th><span class="visually-hidden">Actions</span></th>`}
          </tr>
        </thead>
        <tbody>
          ${p.records.length===0&&!m?c`<tr><td colspan="7" class="empty">No records match.</td></tr>`:null}
          ${p.records.map(b=>w===b.id?c`<${Jo} key=${b.id} zone=${e} record=${b} onDone=${async P=>($(null),P&&await M(P))} onForbidden=${o} />`:c`<${Ko} key=${b.id} zone=${e} record=${b} readOnly=${t} selected=${g.has(b.id)} onSelect=${P=>ro(b,P)} onEdit=${()=>$(b.id)} onMore=${()=>S({record:b})} onProxy=${()=>lo(b)} />`)}
        </tbody>
      </table>
    </div>
    <${Re} info=${co} label="Records pages" onPage=${b=>s(P=>({...P,page:b}))} />

    ${T?c`<${B} title=${T.title} onClose=${()=>k(null)}>
          <p>One batch, applied as a whole: either every change below is made, or none is.</p>
          ${T.lines.length>0?c`<ul class="change-list" aria-label="Changes">${T.lines.map(b=>c`<li>${b}</li>`)}</ul>`:c`<p>Nothing to change.</p>`}
          ${T.unchanged.length>0?c`<details><summary>${T.unchanged.length} selected record${T.unchanged.length===1?"":"s"} left unchanged</summary><ul class="change-list">${T.unchanged.map(b=>c`<li>${b}</li>`)}</ul></details>`:null}
          <${pn} messages=${x} />
          ${x?c`<p>Nothing was changed.</p>`:null}
          <div class="actions">
            <button type="button" class=${T.key==="deletes"?"danger":"primary"} disabled=${T.items.length===0} onClick=${io}>Apply ${T.items.length} change${T.items.length===1?"":"s"}</button>
            <button type="button" onClick=${()=>k(null)}>Cancel</button>
          </div>
        <//>`:null}

    ${v?c`<${B} title=${v.record?`Edit ${v.record.type} ${v.record.name}`:"Add record"} onClose=${()=>S(null)} wide>
          <${Nn}
            zone=${e}
            record=${v.record}
            onForbidden=${o}
            onCancel=${()=>S(null)}
            onSaved=${async(b,P)=>(S(null),await M(`${P} ${b.type} ${b.name}.`))}
          />
        <//>`:null}
  </section>`}function Ko({zone:e,record:t,readOnly:n,selected:o,onSelect:a,onEdit:r,onMore:s,onProxy:i}){let u=`${t.type} ${t.name}`;return c`<tr class=${o?"selected":""}>
    ${n?null:c`<td class="sel"><input type="checkbox" aria-label=${`Select ${u} ${t.content}`} checked=${o} onChange=${p=>a(p.currentTarget.checked)} /></td>`}
    <td class="col-type"><span class="type">${t.type}</span></td>
    <td class="col-name">${he(t.name,e.name)}<span class="fqdn">${t.name}</span></td>
    <td class="col-content content">${it(t)?c`<span class="prio">${t.priority}</span> `:null}${t.content}${t.comment?c`<div class="comment">${t.comment}</div>`:null}</td>
    <td class="col-ttl">${te(t.ttl)}</td>
    <td class="col-proxied">
      ${t.proxiable&&!n?c`<button type="button" role="switch" class=${`switch${t.proxied?" on":""}`} aria-checked=${t.proxied?"true":"false"} aria-label=${`Proxy ${u}`} onClick=${i}><span>${t.proxied?"Proxied":"DNS only"}</span></button>`:c`<span class="muted">${t.proxied?"Proxied":"DNS only"}</span>`}
    </td>
    ${n?null:c`<td class="row-actions">
          <button type="button" onClick=${r} aria-label=${`Edit ${u} inline`}>Edit</button>
          <button type="button" class="link" onClick=${s} aria-label=${`Edit all fields of ${u}`}>Fields…</button>
        </td>`}
  </tr>`}function Jo({zone:e,record:t,onDone:n,onForbidden:o}){let a=ee(t.type).some(v=>v.key==="content"),[r,s]=h(he(t.name,e.name)),[i,u]=h(t.content),[p,d]=h(t.priority===void 0?"":String(t.priority)),[m,f]=h(String(t.ttl)),[l,_]=h({}),g=z(null);re(()=>g.current?.focus(),[]);async function y(v){v?.preventDefault();let S={};if(r!==he(t.name,e.name)&&(S.name=r),i!==t.content&&(S.content=i),t.type==="MX"&&p!==String(t.priority)&&(S.priority=Number(p)),m!==String(t.ttl)&&(S.ttl=Number(m)),Object.keys(S).length===0)return n(null);try{await C("PATCH",`/zones/${e.id}/dns_records/${t.id}`,S),n(`Saved ${t.type} ${r==="@"?e.name:r}.`)}catch(T){T.forbidden&&o(T),_(Me(T,["name","content","priority","ttl"]))}}let w=v=>{v.key==="Escape"&&n(null),v.key==="Enter"&&y(v)},$=v=>l[v]?c`<small class="error" role="alert">${l[v]}</small>`:null;return c`<tr class="editing" onKeyDown=${w}>
    <td class="sel"></td>
    <td class="col-type"><span class="type">${t.type}</span></td>
    <td class="col-name"><input ref=${g} aria-label="Name" value=${r} onInput=${v=>s(v.currentTarget.value)} aria-invalid=${l.name?"true":void 0} />${$("name")}</td>
    <td class="col-content">
      ${t.type==="MX"?c`<input class="prio-input" type="number" aria-label="Priority" value=${p} onInput=${v=>d(v.currentTarget.value)} />`:null}
      ${a?c`<input aria-label="Content" value=${i} onInput=${v=>u(v.currentTarget.value)} aria-invalid=${l.content?"true":void 0} />`:c`<span class="content">${t.content}</span> <small class="hint">(its fields: use “Fields…”)</small>`}
      ${$("content")}${$("priority")}${$("_form")}
    </td>
    <td class="col-ttl"><input type="number" aria-label="TTL" value=${m} onInput=${v=>f(v.currentTarget.value)} aria-invalid=${l.ttl?"true":void 0} />${$("ttl")}</td>
    <td class="col-proxied"></td>
    <td class="row-actions">
      <button type="button" class="primary" onClick=${y}>Save</button>
      <button type="button" onClick=${()=>n(null)}>Cancel</button>
    </td>
  </tr>`}var qe=[{key:"soa.mname",label:"Primary name server (MNAME)",kind:"text"},{key:"soa.rname",label:"Responsible mailbox (RNAME)",kind:"text",hint:"e.g. hostmaster.example.com"},{key:"soa.refresh",label:"Refresh (s)",kind:"number",min:0},{key:"soa.retry",label:"Retry (s)",kind:"number",min:0},{key:"soa.expire",label:"Expire (s)",kind:"number",min:0},{key:"soa.min_ttl",label:"Negative-caching TTL (SOA minimum)",kind:"number",min:0},{key:"soa.ttl",label:"SOA record TTL (s)",kind:"number",min:0},{key:"ns_ttl",label:"NS record TTL (s)",kind:"number",min:0},{key:"proxy_addresses.ipv4",label:"Proxy IPv4 addresses",kind:"text",hint:"comma-separated; proxied A records answer these"},{key:"proxy_addresses.ipv6",label:"Proxy IPv6 addresses",kind:"text",hint:"comma-separated; proxied AAAA records answer these"}];function vt(e){let t={ns_ttl:String(e.ns_ttl),"proxy_addresses.ipv4":e.proxy_addresses.ipv4.join(", "),"proxy_addresses.ipv6":e.proxy_addresses.ipv6.join(", ")};for(let[n,o]of Object.entries(e.soa))t[`soa.${n}`]=String(o);return t}function Rn(e){let t=o=>o.split(",").map(a=>a.trim()).filter(Boolean),n={};for(let o of qe.filter(a=>a.key.startsWith("soa.")))n[o.key.slice(4)]=o.kind==="number"?Number(e[o.key]):e[o.key].trim();return{soa:n,ns_ttl:Number(e.ns_ttl),proxy_addresses:{ipv4:t(e["proxy_addresses.ipv4"]),ipv6:t(e["proxy_addresses.ipv6"])}}}function In(e){let t={};for(let n of e.errors){let o=qe.find(r=>n.message===r.key||n.message.startsWith(`${r.key}:`)||n.message.startsWith(`${r.key}.`)),a=o?o.key:"_form";t[a]=t[a]?`${t[a]}; ${n.message}`:n.message}return t}function On({zone:e,readOnly:t,onForbidden:n,notify:o}){let[a,r]=h(null),[s,i]=h({}),[u,p]=h(null),d=e.type==="secondary";I(()=>{C("GET",`/zones/${e.id}/dns_settings`).then(({result:f})=>r(vt(f))).catch(f=>p(f.message))},[e.id]);async function m(f){f.preventDefault(),i({});try{let l=Rn(a);d&&delete l.soa;let{result:_}=await C("PATCH",`/zones/${e.id}/dns_settings`,l);r(vt(_)),o("Zone settings saved.")}catch(l){l.forbidden&&n(l),i(In(l))}}return u?c`<p class="alert error" role="alert">${u}</p>`:a?c`<section aria-labelledby="settings-heading">
    <h2 id="settings-heading">Zone settings</h2>
    <form class="settings-form" onSubmit=${m} novalidate>
      <fieldset disabled=${t}>
        <legend>SOA, NS TTL and proxy addresses of ${e.name}</legend>
        ${d?c`<p class="hint" data-testid="soa-from-primary">${e.name} is a secondary zone: its SOA is its primary’s, copied by zone transfer.</p>`:null}
        <div class="grid">
          ${qe.map(f=>c`<${V} field=${f} value=${a[f.key]} error=${s[f.key]} disabled=${d&&f.key.startsWith("soa.")} onInput=${(l,_)=>r(g=>({...g,[l]:_}))} />`)}
        </div>
      </fieldset>
      ${s._form?c`<p class="alert error" role="alert">${s._form}</p>`:null}
      ${t?null:c`<div class="actions"><button type="submit" class="primary">Save settings</button></div>`}
    </form>
  </section>`:c`<p aria-busy="true">Loading settings…</p>`}var ze="com.cloudflare.api.account.zone.",Ue="com.cloudflare.api.account.";function Dn(e,t,n,o){let a=e.filter(p=>t.includes(p.id)),r=a.filter(p=>p.scopes.includes("com.cloudflare.api.account.zone")),s=a.filter(p=>!p.scopes.includes("com.cloudflare.api.account.zone")),i=[],u=p=>p.map(d=>({id:d.id}));if(r.length){let p=n==="zone"?{[`${ze}${o.id}`]:"*"}:{[`${Ue}${o.account.id}`]:{[`${ze}*`]:"*"}};i.push({effect:"allow",permission_groups:u(r),resources:p})}return s.length&&i.push({effect:"allow",permission_groups:u(s),resources:{[`${Ue}${o.account.id}`]:"*"}}),i}var Qo=e=>e.policies.map(t=>`${t.permission_groups.map(n=>n.name).join(", ")} on ${Object.keys(t.resources).map(n=>n.replace(ze,"zone ").replace(Ue,"account ")).join(", ")}`).join("; ");function Fn({zone:e,notify:t}){let[n,o]=h(null),[a,r]=h([]),[s,i]=h(null),[u,p]=h(""),[d,m]=h([]),[f,l]=h("zone"),[_,g]=h(null),[y,w]=h(null),[$,v]=h(null),S=()=>Ee().then(({result:x})=>(o(x),i(null))).catch(x=>i(x.forbidden?`This token cannot manage API tokens: ${x.message}`:x.message));I(()=>{S(),C("GET","/user/tokens/permission_groups").then(({result:x})=>r(x)).catch(()=>{})},[]);async function T(x){if(x.preventDefault(),g(null),d.length===0)return g("Choose at least one permission.");try{let{result:N}=await C("POST","/user/tokens",{name:u.trim(),policies:Dn(a,d,f,e)});w({name:N.name,value:N.value}),p(""),m([]),await S()}catch(N){g(N.message)}}async function k(){try{await C("DELETE",`/user/tokens/${$.id}`),t(`Revoked ${$.name}.`),v(null),await S()}catch(x){t(x.message,!0)}}return s?c`<section aria-labelledby="tokens-heading"><h2 id="tokens-heading">API tokens</h2><p class="alert error" role="alert">${s}</p></section>`:c`<section aria-labelledby="tokens-heading">
    <h2 id="tokens-heading">API tokens</h2>
    ${y?c`<div class="alert ok secret" role="status">
          <p>Token <strong>${y.name}</strong> created. Copy its secret now: it is shown only once.</p>
          <label for="token-secret">Secret</label>
          <input id="token-secret" class="mono" readonly value=${y.value} onFocus=${x=>x.currentTarget.select()} />
          <button type="button" onClick=${()=>navigator.clipboard?.writeText(y.value).then(()=>t("Copied."))}>Copy</button>
          <button type="button" class="link" onClick=${()=>w(null)}>I have copied it</button>
        </div>`:null}
    <form class="card token-form" onSubmit=${T}>
      <h3>Create a token</h3>
      <div class="field"><label for="token-name">Token name</label><input id="token-name" required value=${u} onInput=${x=>p(x.currentTarget.value)} /></div>
      <fieldset><legend>Permissions</legend>
        ${a.map(x=>c`<label class="check"><input type="checkbox" checked=${d.includes(x.id)} onChange=${N=>m(j=>N.currentTarget.checked?[...j,x.id]:j.filter(E=>E!==x.id))} /> ${x.name}</label>`)}
      </fieldset>
      <fieldset><legend>Zones</legend>
        <label class="check"><input type="radio" name="token-scope" checked=${f==="zone"} onChange=${()=>l("zone")} /> Only ${e.name}</label>
        <label class="check"><input type="radio" name="token-scope" checked=${f==="account"} onChange=${()=>l("account")} /> Every zone of account ${e.account.name}</label>
      </fieldset>
      ${_?c`<p class="alert error" role="alert">${_}</p>`:null}
      <button type="submit" class="primary">Create token</button>
    </form>
    <div class="table-wrap"><table>
      <thead><tr><th>Name</th><th>Permissions</th><th>Status</th><th>Issued</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        ${(n??[]).map(x=>c`<tr>
            <td>${x.name}</td><td>${Qo(x)}</td><td>${x.status}</td><td><time datetime=${x.issued_on}>${new Date(x.issued_on).toLocaleString()}</time></td>
            <td><button type="button" class="danger" onClick=${()=>v(x)} aria-label=${`Revoke ${x.name}`}>Revoke</button></td>
          </tr>`)}
        ${n&&n.length===0?c`<tr><td colspan="5" class="empty">No tokens yet.</td></tr>`:null}
      </tbody>
    </table></div>
    ${$?c`<${B} title=${`Revoke ${$.name}?`} onClose=${()=>v(null)}>
          <p>Requests with this token will be refused from now on. This cannot be undone.</p>
          <div class="actions"><button type="button" class="danger" onClick=${k}>Revoke token</button><button type="button" onClick=${()=>v(null)}>Cancel</button></div>
        <//>`:null}
  </section>`}var Mn=["hmac-sha256.","hmac-sha512."],ne=e=>String(e??"").trim(),qn=e=>{let t=ne(e);return t!==""&&Number.isFinite(Number(t))?Number(t):t},kt=(e,t)=>t===""?{}:{[e]:t};function xt(e){return e.ip?`${e.ip.includes(":")?`[${e.ip}]`:e.ip}:${e.port??53}`:"no address yet"}var zn=[{path:"tsigs",title:"TSIG keys",one:"TSIG key",intro:"Sign transfers and NOTIFY with a peer (RFC 8945). A key a peer uses cannot be deleted.",fields:()=>[{key:"name",label:"Key name",kind:"text",hint:"as the other server names it, e.g. xfr.example"},{key:"algo",label:"Algorithm",kind:"select",options:Mn},{key:"secret",label:"Secret (base64)",kind:"text",hint:"at least 16 bytes, e.g. from tsig-keygen"}],columns:[["Name",e=>e.name],["Algorithm",e=>e.algo],["Secret",e=>`${"\u2022".repeat(8)} (${e.secret.length} characters)`]],toValues:e=>({name:e?.name??"",algo:e?.algo??Mn[0],secret:e?.secret??""}),toBody:e=>({name:ne(e.name),algo:e.algo,secret:ne(e.secret)})},{path:"peers",title:"Peers",one:"peer",intro:"Name servers zones are transferred from (primaries of secondary zones) or to (secondaries notified of changes).",fields:({tsigs:e})=>[{key:"name",label:"Name",kind:"text"},{key:"ip",label:"IP address",kind:"text",hint:"IPv4 or IPv6; may be set later"},{key:"port",label:"Port",kind:"number",min:1,max:65535,hint:"53 when left empty"},{key:"ixfr_enable",label:"Ask IXFR first",kind:"select",options:[{value:"false",label:"No: AXFR only"},{value:"true",label:"Yes: IXFR, AXFR when it fails"}],hint:"for zones transferred in from this peer"},{key:"tsig_id",label:"TSIG key",kind:"select",options:[{value:"",label:"None (unsigned)"},...e.map(t=>({value:t.id,label:t.name}))]}],columns:[["Name",e=>e.name],["Address",xt],["IXFR",e=>e.ixfr_enable?"yes":"no"],["TSIG key",(e,{tsigs:t})=>e.tsig_id?t.find(n=>n.id===e.tsig_id)?.name??e.tsig_id:"none"]],toValues:e=>({name:e?.name??"",ip:e?.ip??"",port:e?.port===void 0?"":String(e.port),ixfr_enable:String(!!e?.ixfr_enable),tsig_id:e?.tsig_id??""}),toBody:e=>({name:ne(e.name),...kt("ip",ne(e.ip)),...kt("port",qn(e.port)),ixfr_enable:e.ixfr_enable==="true",...kt("tsig_id",e.tsig_id)})},{path:"acls",title:"Transfer ACLs",one:"ACL",intro:"Address ranges allowed to ask the account\u2019s zones by AXFR/IXFR.",fields:()=>[{key:"name",label:"Name",kind:"text"},{key:"ip_range",label:"Address range",kind:"text",hint:"CIDR, e.g. 192.0.2.0/24 or 2001:db8::/32"}],columns:[["Name",e=>e.name],["Range",e=>e.ip_range]],toValues:e=>({name:e?.name??"",ip_range:e?.ip_range??""}),toBody:e=>({name:ne(e.name),ip_range:ne(e.ip_range)})}];function Tt(e){return{peers:e?.peers??[],auto_refresh_seconds:String(e?.auto_refresh_seconds??86400)}}function Un(e,t){return{name:e.name,peers:t.peers,auto_refresh_seconds:qn(t.auto_refresh_seconds)}}function Vn(e,t){return{name:e.name,peers:t.peers}}function Bn(e,t,n){let o=e.filter(a=>a!==t);return n?[...o,t]:o}function Hn(e){return(e??[]).map(t=>`${t.count.toLocaleString("en")} ${t.type} record${t.count===1?"":"s"}: ${t.reason}`)}function Zn(e){return e.serving!==!1?"yes":e.soa_serial===void 0?"no: it holds no copy yet":"no: its copy passed the SOA expire without a primary confirming it"}function jn(e){let t=e.failed_checks??1;return`The last ${t===1?"check":`${t} checks`} of the primaries failed: ${e.last_error}`}function Xn(e){let t=[],n=Math.round(e);for(let[o,a]of[["d",86400],["h",3600],["min",60]])n>=a&&t.push(`${Math.floor(n/a)} ${o}`),n%=a;return(n>0||t.length===0)&&t.push(`${n} s`),t.join(" ")}function ce(e,t){let n={};for(let o of e.errors??[{message:String(e.message)}]){let a=/^([a-z_]+)\b/.exec(o.message)?.[1],r=a&&t.includes(a)&&/^[a-z_]+(\.|:|\[)/.test(o.message)?a:"_form";n[r]=n[r]?`${n[r]}; ${o.message}`:o.message}return n}var er=0;function _e({legend:e,peers:t,chosen:n,onChange:o,error:a,ordered:r}){let s=z(`peers-error-${++er}`).current,i=new Set((t??[]).map(p=>p.id)),u=p=>{let d=t?.find(m=>m.id===p);return d?`${d.name} (${xt(d)})`:p};return c`<fieldset class="peer-picker" aria-describedby=${a?s:void 0}>
    <legend>${e}</legend>
    ${t===null?c`<p class="hint">This token cannot list the account’s peers: they are shown by id.</p>`:t.length===0?c`<p class="hint">No peers yet: add one under Peers.</p>`:null}
    ${[...i,...n.filter(p=>!i.has(p))].map(p=>c`<label class="check"><input type="checkbox" checked=${n.includes(p)} onChange=${d=>o(Bn(n,p,d.currentTarget.checked))} /> ${u(p)}${r&&n.includes(p)?c` <span class="muted">(asked ${n.indexOf(p)+1}.)</span>`:null}</label>`)}
    ${a?c`<small id=${s} class="error" role="alert">${a}</small>`:null}
  </fieldset>`}var tr={key:"name",label:"Catalog zone name",kind:"text",hint:"a name you will not host, e.g. catalog.example.net"};function Gn({account:e,peers:t,readOnly:n,notify:o,onForbidden:a}){let r=`/accounts/${e.id}/secondary_dns/catalog`,[s,i]=h(void 0),[u,p]=h({name:"",peers:[],enabled:!0}),[d,m]=h({}),[f,l]=h(!1),[_,g]=h(null);I(()=>{C("GET",r).then(({result:$})=>i($)).catch($=>$.status===404?i(null):g($.message))},[e.id]),I(()=>{s&&p({name:s.name,peers:s.peers,enabled:s.enabled})},[s]);async function y($){$.preventDefault(),m({});try{let{result:v}=await C("PUT",r,{...u,name:u.name.trim()});i(v),o(`Catalog zone ${v.name} saved.`)}catch(v){v.forbidden&&a(v),m(ce(v,["name","peers"]))}}async function w(){try{await C("DELETE",r),l(!1),i(null),p({name:"",peers:[],enabled:!0}),o("Catalog zone removed.")}catch($){$.forbidden&&a($),l(!1),o($.message,!0)}}return _?c`<p class="alert warn" role="alert">${_}</p>`:s===void 0?null:c`<div class="transfer-list" role="group" aria-labelledby="catalog-heading">
    <h4 id="catalog-heading">Catalog zone</h4>
    <p class="hint">Lists the account’s primary zones with outgoing transfers enabled (RFC 9432): a secondary that transfers it adds and drops those zones by itself.</p>
    ${s?c`<dl class="facts">
          <dt>Status</dt><dd><span class=${`pill${s.enabled?" live":" behind"}`} data-testid="catalog-status">${s.enabled?"Served":"Off"}</span></dd>
          <dt>SOA serial</dt><dd>${s.soa_serial??"\u2014"}</dd>
        </dl>`:null}
    <form onSubmit=${y} novalidate>
      <fieldset disabled=${n}>
        <${V} field=${tr} value=${u.name} error=${d.name} idPrefix="catalog" onInput=${($,v)=>p(S=>({...S,[$]:v}))} />
        <${_e} legend="Secondaries that transfer it (and get its NOTIFY)" peers=${t} chosen=${u.peers} error=${d.peers} onChange=${$=>p(v=>({...v,peers:$}))} />
        <label class="check"><input type="checkbox" checked=${u.enabled} onChange=${$=>p(v=>({...v,enabled:$.currentTarget.checked}))} /> Serve the catalog</label>
      </fieldset>
      ${d._form?c`<p class="alert error" role="alert">${d._form}</p>`:null}
      ${n?null:c`<div class="actions">
            <button type="submit" class="primary">${s?"Save catalog":"Set up catalog"}</button>
            ${s?c`<button type="button" class="danger" onClick=${()=>l(!0)}>Remove catalog</button>`:null}
          </div>`}
    </form>
    ${f?c`<${B} title="Remove the catalog zone?" onClose=${()=>l(!1)}>
          <p>Secondaries provisioned through it stop learning of new zones, and may drop the zones it listed.</p>
          <div class="actions"><button type="button" class="danger" onClick=${w}>Remove</button><button type="button" onClick=${()=>l(!1)}>Cancel</button></div>
        <//>`:null}
  </div>`}function Wn({account:e,lists:t,reload:n,readOnly:o,notify:a,onForbidden:r}){return c`<section class="card" aria-labelledby="account-transfers-heading">
    <h3 id="account-transfers-heading">Keys, peers, ACLs and the catalog</h3>
    <p class="hint">Of account ${e.name}: shared by every zone of the account.</p>
    ${zn.map(s=>c`<${nr} key=${s.path} kind=${s} account=${e} lists=${t} reload=${n} readOnly=${o} notify=${a} onForbidden=${r} />`)}
    <${Gn} account=${e} peers=${t.peers} readOnly=${o} notify=${a} onForbidden=${r} />
  </section>`}function nr({kind:e,account:t,lists:n,reload:o,readOnly:a,notify:r,onForbidden:s}){let[i,u]=h(null),[p,d]=h(null),m=n[e.path],f=`/accounts/${t.id}/secondary_dns/${e.path}`,l=`list-${e.path}`;async function _(){try{await C("DELETE",`${f}/${p.id}`),r(`Deleted ${e.one} ${p.name}.`),d(null),await o()}catch(g){g.forbidden&&s(g),d(null),r(g.message,!0)}}return c`<div class="transfer-list" role="group" aria-labelledby=${l}>
    <div class="section-head">
      <h4 id=${l}>${e.title}</h4>
      ${a?null:c`<button type="button" onClick=${()=>u({})}>Add ${e.one}</button>`}
    </div>
    <p class="hint">${e.intro}</p>
    <div class="table-wrap"><table aria-labelledby=${l}>
      <thead><tr>${e.columns.map(([g])=>c`<th>${g}</th>`)}${a?null:c`<th><span class="visually-hidden">Actions</span></th>`}</tr></thead>
      <tbody>
        ${m.length===0?c`<tr><td colspan=${e.columns.length+1} class="empty">None yet.</td></tr>`:null}
        ${m.map(g=>c`<tr>
            ${e.columns.map(([,y])=>c`<td>${y(g,n)}</td>`)}
            ${a?null:c`<td class="row-actions">
                  <button type="button" class="link" aria-label=${`Edit ${e.one} ${g.name}`} onClick=${()=>u({item:g})}>Edit</button>
                  <button type="button" class="link" aria-label=${`Delete ${e.one} ${g.name}`} onClick=${()=>d(g)}>Delete</button>
                </td>`}
          </tr>`)}
      </tbody>
    </table></div>
    ${i?c`<${or} kind=${e} base=${f} item=${i.item} lists=${n} onClose=${()=>u(null)} onSaved=${async g=>(u(null),r(`Saved ${e.one} ${g.name}.`),await o())} onForbidden=${s} />`:null}
    ${p?c`<${B} title=${`Delete ${e.one} ${p.name}?`} onClose=${()=>d(null)}>
          <p>Zones and peers that use it must stop using it first; the API refuses otherwise and says which.</p>
          <div class="actions"><button type="button" class="danger" onClick=${_}>Delete ${e.one}</button><button type="button" onClick=${()=>d(null)}>Cancel</button></div>
        <//>`:null}
  </div>`}function or({kind:e,base:t,item:n,lists:o,onClose:a,onSaved:r,onForbidden:s}){let[i,u]=h(()=>e.toValues(n)),[p,d]=h({}),m=e.fields(o);async function f(l){l.preventDefault(),d({});try{let _=e.toBody(i),{result:g}=n?await C("PUT",`${t}/${n.id}`,_):await C("POST",t,_);await r(g)}catch(_){_.forbidden&&s(_),d(ce(_,m.map(g=>g.key)))}}return c`<${B} title=${n?`Edit ${e.one} ${n.name}`:`Add a ${e.one}`} onClose=${a}>
    <form onSubmit=${f} novalidate>
      ${m.map(l=>c`<${V} field=${l} value=${i[l.key]} error=${p[l.key]} idPrefix=${e.path} onInput=${(_,g)=>u(y=>({...y,[_]:g}))} />`)}
      ${p._form?c`<p class="alert error" role="alert">${p._form}</p>`:null}
      <div class="actions"><button type="submit" class="primary">Save ${e.one}</button><button type="button" onClick=${a}>Cancel</button></div>
    </form>
  <//>`}var Yn=["tsigs","peers","acls"],rr={key:"auto_refresh_seconds",label:"Refresh (s)",kind:"number",min:300,max:604800,hint:"how often the primary\u2019s SOA is checked when no NOTIFY comes (300\u2013604,800)"},Ve=e=>e?c`<time datetime=${e}>${new Date(e).toLocaleString()}</time>`:"never";function Kn({zone:e,readOnly:t,onForbidden:n,notify:o,onChanged:a}){let[r,s]=h(null),[i,u]=h(null),[p,d]=h(null),m=e.account,f=async()=>{try{let y=await Promise.all(Yn.map(w=>C("GET",`/accounts/${m.id}/secondary_dns/${w}`)));s(Object.fromEntries(Yn.map((w,$)=>[w,y[$].result]))),u(null)}catch(y){s({tsigs:[],peers:[],acls:[]}),u(y.message)}};if(I(()=>{f()},[m.id]),!r)return c`<p aria-busy="true">Loading zone transfers…</p>`;let l=i?null:r.peers,_={zone:e,peers:l,readOnly:t,onForbidden:n,notify:o,onChanged:a},g=y=>(d(y.message),o(y.message,!0));return c`<section aria-labelledby="transfers-heading">
    <h2 id="transfers-heading">Zone transfers</h2>
    ${ar(e,_)}
    ${i?c`<p class="alert warn" role="alert">The account’s keys, peers and ACLs cannot be read with this token: ${i}</p>`:c`${p?c`<p class="alert warn" role="alert" data-testid="account-read-only">This token may not change the account’s keys, peers, ACLs or catalog: ${p}</p>`:null}
          <${Wn} account=${m} lists=${r} reload=${f} readOnly=${t||!!p} notify=${o} onForbidden=${g} />`}
  </section>`}function ar(e,t){return e.type==="secondary"?c`<${sr} ...${t} />`:e.type==="full"||e.type==="partial"?c`<${ir} ...${t} />`:c`<p class="card">${e.name} is an ${e.type} zone: it is not transferred.</p>`}function Jn(e,t){let n=`/zones/${e.id}/secondary_dns/${t}`,[o,a]=h(void 0),[r,s]=h(null),i=()=>C("GET",n).then(({result:u})=>a(u)).catch(u=>u.status===404?a(null):s(u.message));return I(()=>{i()},[e.id]),{path:n,settings:o,setSettings:a,loadError:r,load:i}}var Qn=(e,t)=>[e,...(t.messages??[]).map(n=>n.message)].join(" ");function eo({s:e,body:t,keys:n,picker:o,extra:a,readOnly:r,notify:s,onForbidden:i,saved:u}){let[p,d]=h({});async function m(f){f.preventDefault(),d({});try{let l=await C(e.settings?"PUT":"POST",e.path,t());e.setSettings(l.result),s(Qn(u,l)),await e.load()}catch(l){l.forbidden&&i(l),d(ce(l,n))}}return c`<form onSubmit=${m} novalidate>
    <fieldset disabled=${r}>
      ${o(p.peers)}
      ${a?.(p)}
    </fieldset>
    ${p._form?c`<p class="alert error" role="alert">${p._form}</p>`:null}
    ${r?null:c`<div class="actions"><button type="submit" class="primary">${e.settings?"Save":"Set up"}</button></div>`}
  </form>`}function to({s:e,what:t,notify:n,onForbidden:o}){let[a,r]=h(!1);async function s(){try{await C("DELETE",e.path),r(!1),e.setSettings(null),n(`Removed the ${t}.`)}catch(i){i.forbidden&&o(i),r(!1),n(i.message,!0)}}return c`<button type="button" class="danger" onClick=${()=>r(!0)}>Remove ${t}</button>
    ${a?c`<${B} title=${`Remove the ${t}?`} onClose=${()=>r(!1)}>
          <p>The zone keeps its records; transfers stop until it is set up again.</p>
          <div class="actions"><button type="button" class="danger" onClick=${s}>Remove</button><button type="button" onClick=${()=>r(!1)}>Cancel</button></div>
        <//>`:null}`}function sr({zone:e,peers:t,readOnly:n,onForbidden:o,notify:a,onChanged:r}){let s=Jn(e,"incoming"),[i,u]=h(Tt(null)),[p,d]=h(!1),m=JSON.stringify(Tt(s.settings));I(()=>u(JSON.parse(m)),[m]);async function f(){d(!0);try{await C("POST",`/zones/${e.id}/secondary_dns/force_axfr`),a(`Transferred ${e.name} by AXFR.`),r()}catch(g){g.forbidden&&o(g),a(g.message,!0)}finally{d(!1),await s.load()}}if(s.loadError)return c`<p class="alert error" role="alert">${s.loadError}</p>`;if(s.settings===void 0)return c`<p aria-busy="true">Loading…</p>`;let l=s.settings,_=Hn(l?.skipped_records);return c`<section class="card" aria-labelledby="incoming-heading">
    <h3 id="incoming-heading">Incoming transfers</h3>
    <p class="hint">${e.name} is a secondary zone: its records are copied from its primaries by AXFR and IXFR, and cannot be edited here.</p>
    ${l?c`<dl class="facts">
          <dt>Copy held</dt><dd data-testid="copy-serial">${l.soa_serial===void 0?"none yet: no transfer has completed":`serial ${l.soa_serial}`}</dd>
          <dt>Serving</dt><dd data-testid="serving">${Zn(l)}</dd>
          <dt>Last confirmed by a primary</dt><dd>${Ve(l.checked_time)}</dd>
          <dt>Refresh</dt><dd>every ${Xn(l.auto_refresh_seconds)} without a NOTIFY</dd>
          ${l.next_check_time?c`<dt>Next check</dt><dd>${Ve(l.next_check_time)}</dd>`:null}
          ${l.expires_time?c`<dt>${l.serving?"Expires unless a primary confirms it":"Expired"}</dt><dd data-testid="expires">${Ve(l.expires_time)}</dd>`:null}
        </dl>`:c`<p>No incoming transfers are set up: pick the zone’s primaries to start.</p>`}
    ${l?.last_error?c`<p class="alert error" data-testid="last-error">${jn(l)}</p>`:null}
    ${_.length?c`<div class="alert warn" data-testid="skipped-records"><p>Records the primary holds that the copy lacks (not served here):</p><ul>${_.map(g=>c`<li>${g}</li>`)}</ul></div>`:null}
    <${eo}
      s=${s}
      body=${()=>Un(e,i)}
      keys=${["peers","auto_refresh_seconds"]}
      readOnly=${n}
      notify=${a}
      onForbidden=${o}
      saved="Incoming transfer settings saved."
      picker=${g=>c`<${_e} legend="Primaries, asked in order" peers=${t} chosen=${i.peers} ordered=${!0} error=${g} onChange=${y=>u(w=>({...w,peers:y}))} />`}
      extra=${g=>c`<${V} field=${rr} value=${i.auto_refresh_seconds} error=${g.auto_refresh_seconds} onInput=${(y,w)=>u($=>({...$,[y]:w}))} />`}
    />
    ${l&&!n?c`<div class="actions">
          <button type="button" onClick=${f} disabled=${p} aria-busy=${p?"true":void 0}>${p?"Transferring\u2026":"Transfer now (AXFR)"}</button>
          <${to} s=${s} what="incoming transfer settings" notify=${a} onForbidden=${o} />
        </div>`:null}
  </section>`}function ir({zone:e,peers:t,readOnly:n,onForbidden:o,notify:a}){let r=Jn(e,"outgoing"),[s,i]=h([]),[u,p]=h(null),d=JSON.stringify(r.settings?.peers??[]);I(()=>i(JSON.parse(d)),[d]),I(()=>{C("GET",`/zones/${e.id}/secondary_dns/outgoing/status`).then(({result:_})=>p(_)).catch(()=>p(null))},[e.id,r.settings]);let m=(_,g)=>async()=>{try{let y=await C("POST",`/zones/${e.id}/secondary_dns/outgoing/${_}`);_!=="force_notify"&&p(y.result),a(Qn(g,y))}catch(y){y.forbidden&&o(y),a(y.message,!0)}};if(r.loadError)return c`<p class="alert error" role="alert">${r.loadError}</p>`;if(r.settings===void 0)return c`<p aria-busy="true">Loading…</p>`;let f=r.settings,l=u==="Enabled";return c`<section class="card" aria-labelledby="outgoing-heading">
    <h3 id="outgoing-heading">Outgoing transfers</h3>
    <p class="hint">Secondaries may transfer ${e.name} by AXFR and IXFR, signed with their peer’s TSIG key and from an address an ACL allows; the peers picked here get a NOTIFY after every change.</p>
    ${f?c`<dl class="facts">
          <dt>Status</dt><dd><span class=${`pill${l?" live":" behind"}`} data-testid="outgoing-status">${u??"\u2026"}</span></dd>
          <dt>SOA serial</dt><dd>${f.soa_serial??"\u2014"}</dd>
          <dt>Last transferred</dt><dd>${Ve(f.last_transferred_time)}</dd>
        </dl>`:c`<p>No outgoing transfers are set up. Set them up, then enable them.</p>`}
    <${eo}
      s=${r}
      body=${()=>Vn(e,{peers:s})}
      keys=${["peers"]}
      readOnly=${n}
      notify=${a}
      onForbidden=${o}
      saved="Outgoing transfer settings saved."
      picker=${_=>c`<${_e} legend="Secondaries to notify" peers=${t} chosen=${s} error=${_} onChange=${i} />`}
    />
    ${f&&!n?c`<div class="actions">
          ${l?c`<button type="button" onClick=${m("disable","Outgoing transfers disabled.")}>Disable</button>`:c`<button type="button" class="primary" onClick=${m("enable","Outgoing transfers enabled.")}>Enable</button>`}
          <button type="button" onClick=${m("force_notify","NOTIFY sent to the secondaries.")} disabled=${!l}>Send NOTIFY now</button>
          <${to} s=${r} what="outgoing transfer settings" notify=${a} onForbidden=${o} />
        </div>`:null}
  </section>`}var lr=[["records","DNS records"],["import","Import / export"],["settings","Settings"],["transfers","Zone transfers"],["audit","Audit log"],["tokens","API tokens"],["query","Query"]];function no(){let[e,t]=h(Ce.token);return e?c`<${cr} onLogout=${()=>(Ce.clear(),t(""))} />`:c`<${wn} onLogin=${n=>(Ce.set(n),t(n))} />`}function cr({onLogout:e}){let[t,n]=h(null),[o,a]=h(null),[r,s]=h("records"),[i,u]=h("unknown"),[p,d]=h(null),[m,f]=h(0),[l,_]=h(!1),[g,y]=h(null),w=z(0),$=z(null),v=ae((E,L=!1)=>{d({message:E,error:L}),clearTimeout(w.current),w.current=setTimeout(()=>d(null),L?12e3:6e3)},[]),S=ae(E=>u(E.message),[]),T=ae(()=>f(E=>E+1),[]),k=async E=>{try{let{result:L}=await C("GET","/zones?per_page=1000&order=name");n(L),a(q=>L.find(M=>M.id===(E??q?.id))??L[0]??null)}catch(L){L.status===403&&L.errors[0]?.code===9109&&e(),y(L.message)}};I(()=>{k()},[]),I(()=>{o&&(u("unknown"),C("POST",`/zones/${o.id}/dns_records/batch`,{}).then(()=>u("edit")).catch(E=>u(E.forbidden?E.message:"edit")))},[o?.id]);let x=i!=="edit"?i==="unknown"?!0:i:null,N=o?.type==="secondary"&&["records","import"].includes(r),j=E=>{a(t.find(L=>L.id===E)??null),$.current?.focus()};return c`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <span class="brand">edgedns</span>
      ${t&&t.length>0?c`<div class="field inline zone-pick">
            <label for="zone-select">Zone</label>
            <select id="zone-select" value=${o?.id??""} onChange=${E=>j(E.currentTarget.value)}>
              ${t.map(E=>c`<option value=${E.id}>${E.name}${E.status==="pending"?" (pending)":""}</option>`)}
            </select>
          </div>`:null}
      <button type="button" onClick=${()=>_(!0)}>Add zone</button>
      ${o?c`<${Cn} zone=${o} version=${m} />`:null}
      <span class="spacer"></span>
      <a href="/client/v4/docs">API reference</a>
      <button type="button" onClick=${e}>Sign out</button>
    </header>
    ${o?c`<nav class="tabs" aria-label="Zone sections">
          ${lr.map(([E,L])=>c`<button type="button" aria-current=${r===E?"page":void 0} onClick=${()=>s(E)}>${L}</button>`)}
        </nav>`:null}
    <main id="main" ref=${$} tabindex="-1">
      ${g?c`<p class="alert error" role="alert">${g}</p>`:null}
      ${typeof x=="string"?c`<div class="alert warn" role="alert" data-testid="read-only">
            <strong>Read-only:</strong> this token may view ${o?.name??"this zone"} but not change it, so editing is hidden. (The API said: ${x})
          </div>`:null}
      ${N?c`<div class="alert warn" data-testid="secondary-zone">
            <strong>Secondary zone:</strong> the records of ${o.name} are copied from its primaries by zone transfer, so editing is hidden. Change them on the primary; see <button type="button" class="link" onClick=${()=>s("transfers")}>Zone transfers</button>.
          </div>`:null}
      ${o?.status==="pending"?c`<${sn} key=${o.id} zone=${o} onActivated=${()=>(k(o.id),T(),v(`${o.name} is active and served.`))} />`:null}
      ${t&&t.length===0?c`<p>No zones yet. <button type="button" onClick=${()=>_(!0)}>Add a zone</button></p>`:null}
      ${o?dr(r,{zone:o,readOnly:!!x,recordsReadOnly:!!x||N,onChanged:T,onForbidden:S,notify:v,version:m}):null}
    </main>
    <div class=${`notice${p?" show":""}${p?.error?" error":""}`} role="status" aria-live="polite" data-testid="notice">${p?.message??""}</div>
    ${l?c`<${ur} onClose=${()=>_(!1)} onAdded=${E=>(_(!1),k(E.id),v(`Added zone ${E.name}.`))} />`:null}
  </div>`}function dr(e,t){switch(e){case"records":return c`<${Ln} key=${t.zone.id} ...${t} readOnly=${t.recordsReadOnly} />`;case"import":return c`<${Sn} key=${t.zone.id} ...${t} readOnly=${t.recordsReadOnly} />`;case"transfers":return c`<${Kn} key=${t.zone.id} ...${t} />`;case"settings":return c`<${On} key=${t.zone.id} ...${t} />`;case"audit":return c`<${mn} key=${t.zone.id} ...${t} />`;case"tokens":return c`<${Fn} ...${t} />`;case"query":return c`<${En} key=${t.zone.id} ...${t} />`}}function ur({onClose:e,onAdded:t}){let[n,o]=h(""),[a,r]=h("full"),[s,i]=h(null);async function u(p){p.preventDefault();try{let{result:d}=await C("POST","/zones",{name:n.trim(),type:a});t(d)}catch(d){i(d.message)}}return c`<${B} title="Add a zone" onClose=${e}>
    <form onSubmit=${u}>
      <div class="field">
        <label for="zone-name">Zone name</label>
        <input id="zone-name" required placeholder="example.org" value=${n} onInput=${p=>o(p.currentTarget.value)} aria-invalid=${s?"true":void 0} aria-describedby=${s?"zone-error":void 0} />
        ${s?c`<small id="zone-error" class="error" role="alert">${s}</small>`:null}
      </div>
      <fieldset>
        <legend>Zone type</legend>
        <label class="check"><input type="radio" name="zone-type" checked=${a==="full"} onChange=${()=>r("full")} /> Primary: records edited here</label>
        <label class="check"><input type="radio" name="zone-type" checked=${a==="secondary"} onChange=${()=>r("secondary")} /> Secondary: records copied from a primary by zone transfer</label>
      </fieldset>
      <div class="actions"><button type="submit" class="primary">Add zone</button><button type="button" onClick=${e}>Cancel</button></div>
    </form>
  <//>`}qt(c`<${no} />`,document.getElementById("app"));
