//===- FloatInstrs.td ---*- tablegen -*-===//
