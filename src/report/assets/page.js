document.querySelectorAll('table.sortable').forEach(function(t){
  var body=t.tBodies[0]; if(!body) return;
  if(body.rows.length>12){var f=document.createElement('input');f.className='filter';
    f.placeholder='filter rows\u2026';t.parentNode.insertBefore(f,t);
    f.addEventListener('input',function(){var q=f.value.toLowerCase();
      Array.prototype.forEach.call(body.rows,function(r){
        r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':'';});});}
  Array.prototype.forEach.call(t.tHead.rows[0].cells,function(th,i){
    th.addEventListener('click',function(){
      var asc=!th.classList.contains('asc');
      Array.prototype.forEach.call(th.parentNode.cells,function(c){c.classList.remove('asc','desc');});
      th.classList.add(asc?'asc':'desc');
      var key=function(r){var s=r.cells[i]?r.cells[i].textContent.trim():'';
        var m=s.replace(/^x/,'').match(/^-?[0-9.]+(e-?[0-9]+)?/);
        if(!m) return [1,s];
        var v=parseFloat(m[0]);var u=s.slice(m[0].length).trim();
        var k={ns:1e-9,'\u00b5s':1e-6,ms:1e-3,s:1}[u.split(' ')[0]];
        return [0,k?v*k:v];};
      var rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){var x=key(a),y=key(b);
        var c=x[0]-y[0]||(x[1]<y[1]?-1:x[1]>y[1]?1:0);return asc?c:-c;});
      rows.forEach(function(r){body.appendChild(r);});});});});
