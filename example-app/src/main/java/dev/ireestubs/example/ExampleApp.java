package dev.ireestubs.example;

/** Placeholder until the example app is written (issue 7). */
public final class ExampleApp {
  private ExampleApp() {}

  public static void main(String[] args) {
    System.out.println("iree-stubs example app");
  }
}
