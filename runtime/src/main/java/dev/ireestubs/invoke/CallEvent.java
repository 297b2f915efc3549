package dev.ireestubs.invoke;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * The JFR event of one call through a backend, {@value #NAME}: begun when the backend takes the
 * call, ended when the call returns or throws (synchronous) or when its signal fence is reached or
 * fails (asynchronous: the event is then committed on the thread that sees the fence). Made only
 * while a recording may take it ({@link CallRecorder#begin()}).
 */
@Name(CallEvent.NAME)
@Label("IREE Call")
@Category({"iree-stubs"})
@Description(
    "A call of a module's function through an iree-stubs backend: from when the backend takes it to"
        + " its results, or to its signal fence for an asynchronous call")
final class CallEvent extends Event {

  static final String NAME = "dev.ireestubs.Call";

  @Label("Module")
  String module;

  @Label("Function")
  String function;

  @Label("Backend")
  @Description("host, iree-session or iree-pool")
  String backend;

  @Label("Device")
  @Description("IREE's HAL driver (local-sync, local-task), or java for a host module")
  String device;

  @Label("Asynchronous")
  boolean async;

  @Label("Bytes In")
  @Description("Array data passed as arguments")
  @DataAmount
  long bytesIn;

  @Label("Bytes Out")
  @Description("Array data returned as results")
  @DataAmount
  long bytesOut;

  @Label("Outcome")
  @Description("ok or failed")
  String outcome;

  @Label("Error")
  @Description("The exception of a failed call: its class and message")
  String error;
}
