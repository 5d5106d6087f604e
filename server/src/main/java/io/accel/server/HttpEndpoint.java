package io.accel.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** {@code GET /metrics} (Prometheus text from the server's registry) and {@code GET /health} (200 while open). */
final class HttpEndpoint {
  private final Channel channel;

  HttpEndpoint(AccelServer server, EventLoopGroup loops, Class<? extends ServerSocketChannel> channelClass,
      String listen, int port) throws InterruptedException {
    channel = new ServerBootstrap().group(loops).channel(channelClass)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            ch.pipeline().addLast(new HttpServerCodec(4096, 8192, 8192), new HttpObjectAggregator(64 * 1024),
                new SimpleChannelInboundHandler<FullHttpRequest>() {
                  @Override
                  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                    respond(ctx, request, server);
                  }

                  @Override
                  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    ctx.close();
                  }
                });
          }
        })
        .bind(new InetSocketAddress(listen, port)).sync().channel();
  }

  private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, AccelServer server) {
    String path = request.uri().contains("?") ? request.uri().substring(0, request.uri().indexOf('?')) : request.uri();
    HttpResponseStatus status;
    String body;
    String type = "text/plain; charset=utf-8";
    if (!request.method().equals(HttpMethod.GET) && !request.method().equals(HttpMethod.HEAD)) {
      status = HttpResponseStatus.METHOD_NOT_ALLOWED;
      body = "GET only\n";
    } else if (path.equals("/metrics")) {
      status = HttpResponseStatus.OK;
      body = server.prometheus().scrape();
      type = "text/plain; version=0.0.4; charset=utf-8";
    } else if (path.equals("/health")) {
      boolean up = server.healthy();
      status = up ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE;
      body = up ? "{\"status\":\"UP\"}\n" : "{\"status\":\"DOWN\"}\n";
      type = "application/json";
    } else {
      status = HttpResponseStatus.NOT_FOUND;
      body = "not found: /metrics and /health are served\n";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
        request.method().equals(HttpMethod.HEAD) ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes));
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    var future = ctx.writeAndFlush(response);
    if (!keepAlive) {
      future.addListener(ChannelFutureListener.CLOSE);
    }
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  void close() {
    channel.close().awaitUninterruptibly();
  }
}
