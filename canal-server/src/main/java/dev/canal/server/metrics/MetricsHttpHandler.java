package dev.canal.server.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every request of one metrics connection with a scrape: the text exposition, built on the scrape thread
 * (it reads live components), then written without blocking. HEAD gets the headers only; a failed scrape is a 500
 * saying why; a connection idle past its deadline, or sending a request too large, is closed.
 */
final class MetricsHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(MetricsHttpHandler.class);

    private final Supplier<String> scrape;
    private final Executor scrapeThread;

    MetricsHttpHandler(Supplier<String> scrape, Executor scrapeThread) {
        this.scrape = scrape;
        this.scrapeThread = scrapeThread;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            respond(ctx, HttpResponseStatus.BAD_REQUEST, "bad request\n", false, false);
            return;
        }
        boolean head = HttpMethod.HEAD.equals(request.method());
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        ctx.channel().config().setAutoRead(false); // one request at a time per connection
        try {
            scrapeThread.execute(() -> {
                String body;
                HttpResponseStatus status;
                try {
                    body = scrape.get();
                    status = HttpResponseStatus.OK;
                } catch (RuntimeException e) {
                    log.error("a metrics scrape failed", e);
                    body = "metrics scrape failed: " + e + "\n";
                    status = HttpResponseStatus.INTERNAL_SERVER_ERROR;
                }
                respond(ctx, status, body, head, keepAlive);
            });
        } catch (RejectedExecutionException stopping) {
            ctx.close();
        }
    }

    private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String body, boolean head,
            boolean keepAlive) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes);
        FullHttpResponse response = new DefaultFullHttpResponse(io.netty.handler.codec.http.HttpVersion.HTTP_1_1,
                status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, TextFormat.CONTENT_TYPE);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        HttpUtil.setKeepAlive(response, keepAlive);
        ChannelFuture written = ctx.writeAndFlush(response);
        if (keepAlive) {
            written.addListener(done -> ctx.channel().config().setAutoRead(true));
        } else {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("closing metrics connection {}: {}", ctx.channel(), cause.toString());
        ctx.close();
    }
}
