#!/usr/bin/env python3
# Writes Templates/schema.json, the JSON Schema (draft 2020-12) of the template format.
# Run it after changing what the decoder accepts; Tests/FlickTemplatesTests/SchemaTests.swift
# fails when the schema's layer keys, animatable properties, timeline keys or parameter types
# drift from the decoder's, and checks bundled and broken templates against it.
import json, os
R=lambda n: {"$ref": "#/$defs/"+n}
P=R("parameterReference")
def withRef(s): return {"anyOf":[s,P]}
def enumRef(vals): return withRef({"enum":vals})
defs={}
defs["parameterReference"]={"type":"string","pattern":"^\\$([A-Za-z_][A-Za-z0-9_]*|\\(.*\\))$","description":"The value of a parameter, \"$name\", or a number computed from number parameters, \"$(width / 2 + 8)\"."}
defs["number"]=withRef({"type":"number"})
defs["nonNegativeNumber"]=withRef({"type":"number","minimum":0})
defs["unitInterval"]=withRef({"type":"number","minimum":0,"maximum":1})
defs["seconds"]=withRef({"type":"number","minimum":0,"maximum":3600})
defs["signedSeconds"]=withRef({"type":"number","minimum":-3600,"maximum":3600})
defs["boolean"]=withRef({"type":"boolean"})
defs["angle"]={"description":"Radians, or degrees as \"90deg\".","anyOf":[{"type":"number"},{"type":"string","pattern":"^\\s*-?[0-9.]+(e-?[0-9]+)?\\s*deg$"},P]}
defs["color"]={"description":"\"#RRGGBB\", \"#RRGGBBAA\", \"#RGB\", \"#RGBA\" or \"transparent\".","anyOf":[
  {"type":"string","pattern":"^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"},{"enum":["transparent","clear"]},P]}
defs["colors"]=withRef({"type":"array","items":R("color")})
defs["point"]={"description":"[x, y] or { x, y }.","anyOf":[
  {"type":"array","items":R("number"),"minItems":2,"maxItems":2},
  {"type":"object","required":["x","y"],"additionalProperties":False,"properties":{"x":R("number"),"y":R("number")}},P]}
defs["size"]={"description":"[width, height] or { width, height }, not negative.","anyOf":[
  {"type":"array","items":R("nonNegativeNumber"),"minItems":2,"maxItems":2},
  {"type":"object","required":["width","height"],"additionalProperties":False,"properties":{"width":R("nonNegativeNumber"),"height":R("nonNegativeNumber")}},P]}
defs["rect"]={"description":"[x, y, width, height] or { x, y, width, height }.","anyOf":[
  {"type":"array","items":R("number"),"minItems":4,"maxItems":4},
  {"type":"object","required":["x","y","width","height"],"additionalProperties":False,"properties":{k:R("number") for k in ["x","y","width","height"]}},P]}
defs["scale"]={"description":"A factor, or [sx, sy].","anyOf":[R("number"),R("point")]}
ptypes=["number","integer","string","color","colour","image","font","boolean","enum","list"]
defs["parameterType"]={"enum":ptypes}
defs["parameter"]={"type":"object","required":["type"],"additionalProperties":False,"properties":{
  "type":R("parameterType"),"default":{"description":"The value when none is given; without it the parameter is required."},
  "description":{"type":"string"},"minimum":{"type":"number"},"maximum":{"type":"number"},
  "choices":{"type":"array","items":{"type":"string"},"minItems":1},"items":R("parameterType"),
  "minItems":{"type":"integer","minimum":0},"maxItems":{"type":"integer","minimum":0}}}
defs["canvas"]={"type":"object","required":["width","height","duration"],"additionalProperties":False,"properties":{
  "width":withRef({"type":"integer","minimum":1,"maximum":16384}),
  "height":withRef({"type":"integer","minimum":1,"maximum":16384}),
  "fps":withRef({"type":"integer","minimum":1,"maximum":240}),
  "duration":{"description":"Seconds, or \"auto\": until every animation has settled.","anyOf":[{"type":"number","minimum":0.001,"maximum":3600},{"const":"auto"},P]},
  "background":{"description":"A colour, \"transparent\", or a gradient (a layer with id \"background\" under every other layer).",
    "anyOf":[R("color"),{"type":"object","required":["colors"],"additionalProperties":False,"properties":{
      "colors":R("colors"),"kind":enumRef(["axial","radial","conic","linear"]),"locations":{"type":"array","items":R("unitInterval")},
      "startPoint":R("point"),"endPoint":R("point")}}]}}}
# paths
defs["path"]={"description":"SVG path data, or one shape helper.","anyOf":[{"type":"string"},
  {"type":"object","additionalProperties":False,"properties":{
    "rect":R("rect"),"ellipse":R("rect"),"roundedRect":R("rect"),"cornerRadius":R("nonNegativeNumber"),
    "arc":R("point"),"radius":R("nonNegativeNumber"),"startAngle":R("angle"),"endAngle":R("angle"),"clockwise":R("boolean")}},P]}
defs["transform"]={"type":"object","additionalProperties":False,"properties":{
  "translation":R("point"),"scale":R("scale"),"rotation":R("angle"),"rotationX":R("angle"),"rotationY":R("angle"),"perspective":R("nonNegativeNumber")}}
corners=["topLeft","topRight","bottomLeft","bottomRight","layerMinXMinYCorner","layerMaxXMinYCorner","layerMinXMaxYCorner","layerMaxXMaxYCorner"]
gravity=["center","top","bottom","left","right","topLeft","topRight","bottomLeft","bottomRight","resize","resizeAspect","resizeAspectFill"]
weights=["thin","extraLight","light","regular","medium","semibold","bold","heavy","black"]
def enumRef(vals): return withRef({"enum":vals})
layer={
 "id":{"type":"string","minLength":1},
 "type":{"enum":["layer","shape","text","gradient"],"description":"The layer kind; implied by kind-specific keys when omitted."},
 "style":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"string"}}],"description":"Style name(s); the layer's own properties win."},
 "size":R("size"),"position":R("point"),"anchorPoint":R("point"),"opacity":R("unitInterval"),
 "backgroundColor":R("color"),"cornerRadius":R("nonNegativeNumber"),
 "maskedCorners":{"type":"array","items":{"enum":corners}},"zPosition":R("number"),"transform":R("transform"),
 "isHidden":R("boolean"),"isDoubleSided":R("boolean"),"borderWidth":R("nonNegativeNumber"),"borderColor":R("color"),
 "shadowColor":R("color"),"shadowOpacity":R("unitInterval"),"shadowRadius":R("nonNegativeNumber"),"shadowOffset":R("point"),
 "shadowPath":R("path"),"masksToBounds":R("boolean"),"mask":R("layer"),
 "contents":{"type":"string","description":"An image file (.png, .jpg), relative to the template's folder."},
 "contentsGravity":enumRef(gravity),
 "sublayers":{"type":"array","items":R("layer")},
 # shape
 "path":R("path"),"fillColor":R("color"),"strokeColor":R("color"),"lineWidth":R("nonNegativeNumber"),
 "lineCap":enumRef(["butt","round","square"]),"lineJoin":enumRef(["miter","round","bevel"]),"miterLimit":R("number"),
 "lineDashPattern":{"type":"array","items":R("nonNegativeNumber")},"lineDashPhase":R("number"),
 "strokeStart":R("unitInterval"),"strokeEnd":R("unitInterval"),"fillRule":enumRef(["nonZero","evenOdd"]),
 # text
 "string":{"type":"string"},"fontFamily":{"type":"string","minLength":1},"fontSize":R("number"),
 "fontWeight":{"anyOf":[{"enum":[100,200,300,400,500,600,700,800,900]},{"enum":weights},P]},
 "fontStyle":enumRef(["normal","italic","oblique"]),"textColor":R("color"),
 "alignment":enumRef(["left","center","right","justified"]),"isWrapped":R("boolean"),"lineSpacing":R("number"),"tracking":R("number"),
 "truncationMode":enumRef(["none","start","middle","end"]),
 # gradient
 "kind":enumRef(["axial","radial","conic","linear"]),"colors":R("colors"),"locations":{"type":"array","items":R("unitInterval")},
 "startPoint":R("point"),"endPoint":R("point"),
}
defs["layerBody"]={"type":"object","additionalProperties":False,"properties":layer}
defs["layer"]={"allOf":[R("layerBody")],"required":["id"]}
defs["style"]={"allOf":[R("layerBody")],"not":{"anyOf":[{"required":["id"]},{"required":["sublayers"]},{"required":["style"]}]}}
# motion
names=["spring","smooth","snappy","bouncy","decay","tween","cubicBezier","steps","keyframes","anticipate","backIn","backInOut","backOut","bounceIn","bounceInOut","bounceOut","default","easeIn","easeInEaseOut","easeOut","elasticIn","elasticInOut","elasticOut","linear"]
defs["curve"]={"description":"An animation spec, as for 'flick curve': \"easeOut\", \"spring(bounciness: 8, speed: 12)\", \"decay(deceleration: 0.998)\", \"steps(4)\"…, or a cubic bezier [x1, y1, x2, y2].",
 "anyOf":[{"type":"string","pattern":"^\\s*("+"|".join(names)+")\\s*(\\(.*\\))?\\s*$"},
          {"type":"array","items":{"type":"number"},"minItems":4,"maxItems":4},P]}
num=R("number")
defs["springObject"]={"anyOf":[{"const":True},{"type":"object","additionalProperties":False,"properties":{k:num for k in
  ["stiffness","damping","mass","tension","friction","bounciness","speed","duration","bounce","response","dampingRatio","visualDuration","velocity","normalizedVelocity","threshold","delay","repeatCount","timeOffset"]}|{"repeatForever":R("boolean"),"autoreverses":R("boolean")}}]}
defs["decayObject"]={"anyOf":[{"const":True},{"type":"object","additionalProperties":False,"properties":{k:num for k in ["velocity","deceleration","threshold","min","max","delay","repeatCount","timeOffset"]}|{"repeatForever":R("boolean"),"autoreverses":R("boolean")}}]}
defs["tweenObject"]={"type":"object","additionalProperties":False,"properties":{"curve":{"type":"string"},"duration":R("seconds")}}
def kf(valueDef): return {"type":"object","required":["values"],"additionalProperties":False,"properties":{
  "values":{"type":"array","items":valueDef,"minItems":1},"keyTimes":{"type":"array","items":R("unitInterval")},
  "curves":{"type":"array","items":R("curve")},"mode":{"enum":["linear","discrete","paced","cubic"]},"duration":R("seconds")}}
timing={"repeatCount":R("nonNegativeNumber"),"repeatForever":R("boolean"),"autoreverses":R("boolean"),"speed":R("nonNegativeNumber"),"timeOffset":R("number"),"repeatDuration":R("seconds"),"fill":{"enum":["removed","backwards","forwards","both"]}}
motion={"curve":R("curve"),"spring":R("springObject"),"decay":R("decayObject"),"tween":R("tweenObject")}
types={"number":R("number"),"angle":R("angle"),"point":R("point"),"size":R("size"),"rect":R("rect"),"color":R("color"),"colors":R("colors")}
for t,vd in types.items():
  spec={"type":"object","additionalProperties":False,"properties":{"to":vd,"from":vd,"by":vd,"velocity":vd,"duration":R("seconds"),"delay":R("seconds"),"keyframes":kf(vd)}|motion|timing,
        "anyOf":[{"required":[k]} for k in ["to","from","by","velocity","duration","delay","keyframes"]+list(motion)+list(timing)]}
  defs[t+"Animation"]={"anyOf":[vd,spec]}
props={}
ptype={"position":"point","positionX":"number","positionY":"number","anchorPoint":"point","bounds":"rect","size":"size","zPosition":"number",
 "rotation":"angle","rotationX":"angle","rotationY":"angle","perspective":"number","scaleXY":"point","scaleX":"number","scaleY":"number",
 "translationXY":"point","translationX":"number","translationY":"number","opacity":"number","backgroundColor":"color","cornerRadius":"number",
 "borderWidth":"number","borderColor":"color","shadowColor":"color","shadowOpacity":"number","shadowRadius":"number","shadowOffset":"point",
 "strokeStart":"number","strokeEnd":"number","lineWidth":"number","lineDashPhase":"number","fillColor":"color","strokeColor":"color",
 "fontSize":"number","tracking":"number","textColor":"color","colors":"colors","startPoint":"point","endPoint":"point"}
defs["animate"]={"type":"object","minProperties":1,"additionalProperties":False,"properties":{k:R(v+"Animation") for k,v in ptype.items()}}
defs["setValues"]={"type":"object","additionalProperties":False,"properties":{k:types[v] for k,v in ptype.items()}}
defs["animatorValues"]={"type":"object","additionalProperties":False,"properties":{k:{"anyOf":[types[v],{"type":"object","required":["to"],"additionalProperties":False,"properties":{"to":types[v],"from":types[v]}}]} for k,v in ptype.items()}}
defs["propertyName"]={"enum":list(ptype)}
place={"id":{"type":"string","minLength":1},"at":R("seconds"),"after":{"type":"string"},"with":{"type":"string"},"delay":R("signedSeconds")}
targets={"target":{"type":"string"},"targets":{"type":"array","items":{"type":"string"},"minItems":1},"stagger":R("number")}
def entry(required, props, desc):
  return {"type":"object","description":desc,"required":required,"additionalProperties":False,"properties":place|props}
defs["animateEntry"]=entry(["animate"],targets|{"animate":R("animate"),"duration":R("seconds"),"keyframes":{"type":"object"}}|motion|timing,"Animate properties of target layer(s).")
defs["setEntry"]=entry(["set"],targets|{"set":R("setValues")},"Change properties at once.")
rep={"repeat":{"description":"Play it this many times (1 = once), each run starting when the previous one has settled, or \"forever\" (until the scene ends).","anyOf":[{"type":"integer","minimum":1,"maximum":100000},{"const":"forever"},P]},"autoreverses":R("boolean")}
defs["groupEntry"]=entry(["group"],{"group":{"type":"array","items":R("entry")},"stagger":R("number")}|rep,"Entries in parallel; 'at' inside is relative to the group.")
defs["sequenceEntry"]=entry(["sequence"],{"sequence":{"type":"array","items":{"anyOf":[R("entry"),{"type":"array","items":R("entry")},
   {"type":"object","required":["delay"],"additionalProperties":False,"properties":{"delay":R("seconds")}}]}}}|rep,"Steps one after another: an entry, a parallel step [ … ], or { delay }.")
defs["dragEntry"]=entry(["drag","target"],{"target":{"type":"string"},"drag":{"type":"object","required":["duration"],"additionalProperties":False,"properties":{
  "property":R("propertyName"),"path":{"type":"array","minItems":1},"by":{"type":"array","minItems":1},"duration":R("seconds"),"curve":R("curve")}}},"A scripted finger moving a property along a path.")
defs["releaseEntry"]=entry(["release","target"],{"target":{"type":"string"},"release":{"type":"object","additionalProperties":False,"properties":{
  "property":R("propertyName"),"to":{},"by":{}}|motion|{"keyframes":{"type":"object"}}|timing}},"Let go: the velocity at this moment goes into a spring (with 'to') or a decay.")
events=["start","pause","reverse","scrub","continue","stop","finish","addAnimations"]
defs["animatorEvent"]={"type":"object","required":["do"],"additionalProperties":False,"properties":{
  "at":R("seconds"),"do":{"enum":events},"delay":R("seconds"),"fraction":R("unitInterval"),"duration":R("seconds"),"curve":R("curve"),
  "durationFactor":R("number"),"position":{"enum":["start","current","end"]},"reversed":R("boolean"),"withoutFinishing":R("boolean"),
  "target":{"type":"string"},"targets":{"type":"array","items":{"type":"string"}},"animate":R("animatorValues"),"delayFactor":R("unitInterval")}}
defs["animatorEntry"]=entry(["animator"],{"animator":{"type":"object","required":["duration","events"],"additionalProperties":False,"properties":{
  "duration":R("seconds"),"curve":R("curve"),"target":{"type":"string"},"targets":{"type":"array","items":{"type":"string"}},
  "pausesOnCompletion":R("boolean"),"scrubsLinearly":R("boolean"),
  "animate":R("animatorValues"),"animations":{"type":"array","items":{"type":"object","required":["animate"],"additionalProperties":False,"properties":{
     "target":{"type":"string"},"targets":{"type":"array","items":{"type":"string"}},"animate":R("animatorValues"),"delayFactor":R("unitInterval")}}},
  "events":{"type":"array","items":R("animatorEvent"),"minItems":1}}}},"A UIViewPropertyAnimator driven by scripted events.")
defs["propertyEntry"]=entry(["target","property"],{"target":{"type":"string"},"property":R("propertyName"),"to":{},"from":{},"by":{},"velocity":{},"duration":R("seconds"),"keyframes":{"type":"object"}}|motion|timing,"One property of one layer (the short form).")
defs["entry"]={"anyOf":[R(k) for k in ["animateEntry","setEntry","groupEntry","sequenceEntry","dragEntry","releaseEntry","animatorEntry","propertyEntry"]]}
schema={"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://flick.invalid/schema/template-1.json",
 "title":"Flick template (format version 1)",
 "description":"An animated layer scene for the flick renderer. JSON5 is accepted: comments, unquoted keys, trailing commas. See docs/templates.md.",
 "type":"object","required":["flick","canvas"],"additionalProperties":False,
 "properties":{"$schema":{"type":"string","description":"Where editors find this schema."},
  "flick":{"const":1,"description":"Format version; this schema describes version 1."},
  "name":{"type":"string"},"description":{"type":"string","description":"One line for 'flick templates' and 'flick info'."},
  "parameters":{"type":"object","description":"Typed values the template exposes; referenced as \"$name\" (\"$(expression)\" computes a number), or \"${name}\" inside strings.",
     "propertyNames":{"pattern":"^[A-Za-z_][A-Za-z0-9_]*$"},"additionalProperties":R("parameter")},
  "fonts":{"type":"array","description":"Font files (.ttf, .otf, .ttc) relative to the template's folder; their families can be named in fontFamily.",
     "items":{"anyOf":[{"type":"string","pattern":"\\.([tT][tT][fFcC]|[oO][tT][fF])$"},P]}},
  "styles":{"type":"object","description":"Named bags of layer properties, applied with style: \"name\".","additionalProperties":R("style")},
  "canvas":R("canvas"),"layers":{"type":"array","items":R("layer")},"timeline":{"type":"array","items":R("entry")}},
 "$defs":defs}
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Templates', 'schema.json'),'w').write(json.dumps(schema,indent=2,ensure_ascii=False)+"\n")
