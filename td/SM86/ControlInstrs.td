//===- ControlInstrs.td ---*- tablegen -*-===//
