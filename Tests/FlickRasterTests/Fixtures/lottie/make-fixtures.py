# Writes the hand-made Lottie fixtures (by the Flick authors; same licence as the repository).
# Run: python3 make-fixtures.py
import json, sys
def st(v): return {"a":0,"k":v}
def anim(kfs, ease=True):
    # kfs: list of (t, value list); old-style keyframes with "e" for every parser
    out=[]
    for i,(t,v) in enumerate(kfs):
        k={"t":t,"s":v}
        if i+1<len(kfs):
            k["e"]=kfs[i+1][1]
            n=len(v)
            k["i"]={"x":[0.2]*n,"y":[1]*n} if ease else {"x":[1]*n,"y":[1]*n}
            k["o"]={"x":[0.4]*n,"y":[0]*n} if ease else {"x":[0]*n,"y":[0]*n}
        out.append(k)
    return {"a":1,"k":out}
def tr(p=(0,0), s=(100,100), r=0, o=100, sk=0, sa=0):
    return {"ty":"tr","p":st(list(p)),"a":st([0,0]),"s":st(list(s)),"r":st(r) if not isinstance(r,dict) else r,"o":st(o),"sk":st(sk) if not isinstance(sk,dict) else sk,"sa":st(sa)}
def ks(p, r=st(0), s=st([100,100,100]), o=st(100), a=(0,0,0)):
    return {"o":o,"r":r,"p":p if isinstance(p,dict) else st(list(p)),"a":st(list(a)),"s":s}
def layer(ind, nm, shapes, ksv, ty=4, op=60, **extra):
    l={"ddd":0,"ind":ind,"ty":ty,"nm":nm,"sr":1,"ks":ksv,"ao":0,"ip":0,"op":op,"st":0,"bm":0}
    if ty==4: l["shapes"]=shapes
    l.update(extra)
    return l
def fill(c, o=100): return {"ty":"fl","c":st(c),"o":st(o),"r":1,"nm":"fill"}
def stroke(c, w): return {"ty":"st","c":st(c),"o":st(100),"w":st(w),"lc":2,"lj":2,"ml":4,"nm":"stroke"}
def comp(nm, layers, w=200, h=200, fr=30, op=60, assets=None, markers=None):
    d={"v":"5.5.2","fr":fr,"ip":0,"op":op,"w":w,"h":h,"nm":nm,"ddd":0,"assets":assets or [],"layers":layers}
    if markers is not None: d["markers"]=markers
    return d
def path(vs, closed=True, ins=None, outs=None):
    return {"i":ins or [[0,0]]*len(vs),"o":outs or [[0,0]]*len(vs),"v":vs,"c":closed}

# 1. shapes + trim paths + gradients
grad_lin={"ty":"gf","o":st(100),"r":1,"t":1,"s":st([-40,0]),"e":st([40,0]),"g":{"p":2,"k":st([0,0.98,0.45,0.09, 1,0.23,0.39,0.93])},"nm":"linear"}
grad_rad={"ty":"gf","o":st(100),"r":1,"t":2,"s":st([0,0]),"e":st([32,0]),"h":st(0),"a":st(0),"g":{"p":3,"k":st([0,1,1,1, 0.5,0.13,0.77,0.37, 1,0.05,0.3,0.15])},"nm":"radial"}
shapes=comp("shapes-trim", [
  layer(1,"ring",[{"ty":"gr","nm":"ring","it":[
     {"ty":"el","d":1,"s":st([150,150]),"p":st([0,0]),"nm":"circle"},
     {"ty":"tm","s":st(0),"e":anim([(0,[0]),(45,[100])]),"o":anim([(0,[0]),(59,[90])],ease=False),"m":1,"nm":"trim"},
     {"ty":"st","c":st([0.93,0.27,0.27,1]),"o":st(100),"w":st(10),"lc":2,"lj":2,"ml":4,"nm":"stroke"},
     tr()]}], ks((100,100,0), r=anim([(0,[0]),(59,[120])]))),
  layer(2,"box",[{"ty":"gr","nm":"box","it":[
     {"ty":"rc","d":1,"s":st([80,80]),"p":st([0,0]),"r":st(14),"nm":"rect"},
     grad_lin, tr()]}], ks(anim([(0,[60,60,0]),(30,[140,60,0]),(59,[140,140,0])]), r=anim([(0,[0]),(59,[90])]))),
  layer(3,"star",[{"ty":"gr","nm":"star","it":[
     {"ty":"sr","sy":1,"d":1,"pt":st(5),"p":st([0,0]),"r":st(0),"ir":st(14),"is":st(0),"or":st(32),"os":st(0),"nm":"star"},
     grad_rad, stroke([0.1,0.1,0.1,1],2), tr()]}], ks((60,140,0), s=anim([(0,[60,60,100]),(30,[120,120,100]),(59,[80,80,100])]))),
], markers=[{"tm":0,"cm":"intro","dr":30},{"tm":30,"cm":"outro","dr":30}])

# 2. masks + mattes + precomps
inner=[layer(1,"dot",[{"ty":"gr","nm":"dot","it":[
   {"ty":"el","d":1,"s":st([40,40]),"p":st([0,0])}, fill([0.98,0.8,0.08,1]), tr()]}],
   ks(anim([(0,[20,50,0]),(59,[180,50,0])])))]
assets=[{"id":"comp_dot","layers":inner}]
masks=comp("masks-precomp", [
  # Precomp used twice, the second 20 frames later.
  layer(1,"dots-a",None,ks((100,50,0),a=(100,50,0)),ty=0,refId="comp_dot",w=200,h=100),
  layer(2,"dots-b",None,ks((100,150,0),a=(100,50,0)),ty=0,refId="comp_dot",w=200,h=100,st=20),
  # Alpha matte: a circle reveals a striped solid.
  layer(3,"matte",[{"ty":"gr","nm":"m","it":[
     {"ty":"el","d":1,"s":anim([(0,[40,40]),(40,[170,170])]),"p":st([0,0])}, fill([1,1,1,1]), tr()]}],
     ks((100,100,0)), td=1),
  # (rlottie 0.1 draws a matted shape layer as nothing; a matted solid works.)
  layer(4,"sky",None,ks((100,100,0),a=(100,100,0)),ty=1,sc="#3b82f6",sw=200,sh=200,tt=1),
  # A solid cut by a subtracting mask.
  layer(5,"card",None,ks((100,100,0),a=(100,100,0)),ty=1,sc="#1e293b",sw=200,sh=200,hasMask=True,
        masksProperties=[
          {"inv":False,"mode":"a","pt":st(path([[10,10],[190,10],[190,190],[10,190]])),"o":st(100),"x":st(0),"nm":"keep"},
          {"inv":False,"mode":"s","pt":anim([(0,[path([[70,70],[130,70],[130,130],[70,130]])]),(59,[path([[40,40],[160,40],[160,160],[40,160]])])]),"o":st(100),"x":st(0),"nm":"hole"}]),
], assets=assets)

# 3. "3D-ish": a card flip by negative scale, a tilt and a squashing shadow (rlottie 0.1 ignores
# skew, so none is used)
card=comp("card-flip", [
  layer(1,"shadow",[{"ty":"gr","nm":"sh","it":[
     {"ty":"el","d":1,"s":st([120,20]),"p":st([0,0])}, fill([0,0,0,1],30), tr()]}],
     ks((100,175,0), s=anim([(0,[100,100,100]),(20,[30,100,100]),(40,[100,100,100])]))),
  layer(2,"card",[{"ty":"gr","nm":"mark","it":[
     {"ty":"sh","ks":st(path([[-25,0],[-5,20],[30,-20]],closed=False))},
     {"ty":"st","c":st([1,1,1,1]),"o":st(100),"w":st(8),"lc":2,"lj":2,"ml":4},
     tr()]},
   {"ty":"gr","nm":"face","it":[
     {"ty":"rc","d":1,"s":st([110,150]),"p":st([0,0]),"r":st(12)},
     fill([0.55,0.36,0.96,1]),
     {"ty":"st","c":st([1,1,1,1]),"o":st(100),"w":st(4),"lc":2,"lj":2,"ml":4},
     tr(r=anim([(0,[0]),(20,[-4]),(40,[0])]))]}],
     ks((100,95,0), s=anim([(0,[100,100,100]),(20,[-100,100,100]),(40,[100,100,100])]), r=anim([(0,[-6]),(40,[6])])), op=45),
], op=45, fr=25)

# 4. unsupported: a text layer and an expression
text=comp("has-text", [
  {"ddd":0,"ind":1,"ty":5,"nm":"Title","sr":1,"ks":ks((100,100,0)),"ao":0,"ip":0,"op":60,"st":0,"bm":0,
   "t":{"d":{"k":[{"s":{"s":24,"f":"Inter","t":"Hello","j":0,"tr":0,"lh":28,"ls":0,"fc":[0,0,0]},"t":0}]},"p":{},"m":{"g":1,"a":st([0,0])},"a":[]}},
  layer(3,"slanted",[{"ty":"gr","nm":"g","it":[{"ty":"rc","d":1,"s":st([40,40]),"p":st([0,0]),"r":st(0)}, fill([0,0,1,1]), tr(sk=30)]}], ks((50,50,0))),
  layer(2,"wobble",[{"ty":"gr","nm":"g","it":[{"ty":"el","d":1,"s":st([40,40]),"p":st([0,0])}, fill([1,0,0,1]), tr()]}],
     {"o":st(100),"r":{"a":0,"k":0,"x":"wiggle(2, 30)"},"p":st([100,100,0]),"a":st([0,0,0]),"s":st([100,100,100])}),
])
for name, d in [("shapes-trim", shapes), ("masks-precomp", masks), ("card-flip", card), ("has-text", text)]:
    with open(f"{name}.json","w") as f: json.dump(d, f, separators=(",",":"))

# 5. The bundled template's badge (Templates/lottie/success-badge.json): a ring drawn by a trim
# path, a filled disc popping in and a check mark stroked on.
badge=comp("success-badge", [
  layer(1,"check",[{"ty":"gr","nm":"check","it":[
     {"ty":"sh","ks":st(path([[-34,2],[-10,26],[38,-24]],closed=False))},
     {"ty":"tm","s":st(0),"e":anim([(28,[0]),(52,[100])]),"o":st(0),"m":1},
     {"ty":"st","c":st([1,1,1,1]),"o":st(100),"w":st(16),"lc":2,"lj":2,"ml":4},
     tr()]}], ks((120,120,0))),
  layer(2,"disc",[{"ty":"gr","nm":"disc","it":[
     {"ty":"el","d":1,"s":st([170,170]),"p":st([0,0])},
     {"ty":"gf","o":st(100),"r":1,"t":1,"s":st([-85,-85]),"e":st([85,85]),"g":{"p":2,"k":st([0,0.2,0.83,0.6, 1,0.02,0.59,0.53])}},
     tr()]}], ks((120,120,0), s=anim([(14,[0,0,100]),(30,[108,108,100]),(40,[100,100,100])]))),
  layer(3,"ring",[{"ty":"gr","nm":"ring","it":[
     {"ty":"el","d":1,"s":st([210,210]),"p":st([0,0])},
     {"ty":"tm","s":st(0),"e":anim([(0,[0]),(24,[100])]),"o":st(0),"m":1},
     {"ty":"st","c":st([0.2,0.83,0.6,1]),"o":st(100),"w":st(8),"lc":2,"lj":2,"ml":4},
     tr()]}], ks((120,120,0), r=st(-90))),
], w=240, h=240, fr=30, op=60)
with open("../../../../Templates/lottie/success-badge.json","w") as f: json.dump(badge, f, separators=(",",":"))

# 6. Dashed lines (LottieDashOrderTests): one horizontal line a layer, from x 10 to 190, 4 points
# wide with butt caps, its dash list `d` in the order the layer is named after; lottie-web reads
# the entries by name (`o` the offset, the others the dash array). `dashes-zero`: lists whose
# dashes and gaps are all 0 (lottie-web draws the stroke solid).
def dash(n, v): return {"n":n,"nm":n,"v":v if isinstance(v,dict) else st(v)}
def dashed(ind, y, dashes, op=11):
    line={"ty":"sh","ks":st(path([[10,y],[190,y]],closed=False))}
    s={"ty":"st","c":st([0,0,1,1]),"o":st(100),"w":st(4),"lc":1,"lj":1,"ml":4,"nm":"stroke","d":dashes}
    return layer(ind,"row%d"%y,[line,s],ks((0,0,0)),op=op)
rows=[
  (20,[dash("o",5),dash("d",20),dash("g",10)]),
  (40,[dash("d",20),dash("o",5),dash("g",10)]),
  (60,[dash("d",20),dash("g",10)]),
  (80,[dash("d",20),dash("g",10),dash("d",5),dash("o",0)]),
  (100,[dash("o",0),dash("d",anim([(0,[20]),(10,[40])],ease=False)),dash("g",10)]),
  (120,[dash("d",20),dash("g",10),dash("o",5)]),
  (140,[dash("g",10),dash("d",20),dash("o",5)]),
  (160,[dash("o",100),dash("d",20),dash("g",10),dash("o",5)]),
]
dashes=comp("dashes",[dashed(i+1,y,d) for i,(y,d) in enumerate(rows)], w=200, h=180, op=11)
zero=comp("dashes-zero",[
  dashed(1,20,[dash("d",0),dash("g",0),dash("o",5)],op=11),
  dashed(2,40,[dash("d",0),dash("o",0)],op=11),
  dashed(3,60,[dash("o",3)],op=11),
], w=200, h=80, op=11)
for name, d in [("dashes", dashes), ("dashes-zero", zero)]:
    with open(f"{name}.json","w") as f: json.dump(d, f, separators=(",",":"))
